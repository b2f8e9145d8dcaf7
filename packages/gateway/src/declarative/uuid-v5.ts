import { createHash } from 'node:crypto';

// kong/db/schema/others/declarative_config.lua: ids of entities declared without one are
// uuidv5(uuidv5(ENTITIES_NS, <schema name>), <key>) (RFC 4122 §4.3, SHA-1).
const ENTITIES_NS = 'fd02801f-0957-4a15-a55a-c8d9606f30b5';

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** RFC 4122 name-based UUID (version 5, SHA-1) of `name` in `namespace`. */
export function uuidV5(namespace: string, name: string): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50; // version 5
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const namespaces = new Map<string, string>();

/** Kong's deterministic id of an entity of `schemaName` ("services", "targets", …) keyed by `key`. */
export function deriveEntityId(schemaName: string, key: string): string {
  let ns = namespaces.get(schemaName);
  if (ns === undefined) {
    ns = uuidV5(ENTITIES_NS, schemaName);
    namespaces.set(schemaName, ns);
  }
  return uuidV5(ns, key);
}

// kong/db/schema/init.lua validators.uuid: any 8-4-4-4-12 hex string.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `value` is a UUID string as Kong's schema accepts it. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}
