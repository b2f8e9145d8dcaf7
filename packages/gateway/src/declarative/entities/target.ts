// kong/db/schema/entities/targets.lua and the normalisation of kong/db/dao/targets.lua.
import type { Field, FieldTable, RecordSchema } from '../schema.ts';
import { formatHost, normalizeIp, type ParsedHost } from '../host-names.ts';
import { ID, TAGS } from './common.ts';

/** Port a target gets when its string has none (kong/db/dao/targets.lua DEFAULT_PORT). */
export const DEFAULT_TARGET_PORT = 8000;

function validateTarget(target: string): string | undefined {
  return normalizeIp(target).ok ? undefined : `Invalid target ('${target}'); not a valid hostname or ip address`;
}

/** The target field table; `foreign` is how `upstream` may be written. */
export const TARGET_FIELDS = (foreign: Field): FieldTable => [
  ['id', ID],
  ['created_at', { type: 'number' }],
  ['updated_at', { type: 'number' }],
  ['upstream', foreign],
  // The target address (ip or hostname) and port, stored as written.
  ['target', { type: 'string', required: true, custom: validateTarget }],
  // The weight this target gets within the upstream loadbalancer (0-65535); 0 disables it.
  ['weight', { type: 'integer', default: 100, between: [0, 65535] }],
  ['tags', TAGS],
];

/** The target record schema. */
export function targetSchema(foreign: Field): RecordSchema {
  return { fields: TARGET_FIELDS(foreign) };
}

/** A target string split into host kind, normalised host and port (8000 when absent). */
export function parseTarget(target: string): ParsedHost & { readonly port: number } {
  const r = normalizeIp(target);
  if (!r.ok) throw new TypeError(`not a valid target: ${target}`);
  return { ...r.value, port: r.value.port ?? DEFAULT_TARGET_PORT };
}

/**
 * The target as the Admin API shows it: port 8000 when absent, IPv4 leading zeros removed,
 * IPv6 expanded and bracketed, names untouched (kong/db/dao/targets.lua format_target).
 */
export function formatTarget(target: string): string {
  return formatHost(parseTarget(target));
}
