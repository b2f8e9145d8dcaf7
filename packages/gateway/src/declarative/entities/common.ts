// Field definitions shared by several entities (kong/db/schema/typedefs.lua).
import type { Field } from '../schema.ts';
import { validateHost, validateHostWithOptionalPort, validateSni, validateWildcardHost } from '../host-names.ts';
import { validatePath } from '../normalize-path.ts';

/** Every protocol a service or route may name (kong/constants.lua PROTOCOLS). */
export const PROTOCOLS = ['grpc', 'grpcs', 'http', 'https', 'tcp', 'tls', 'tls_passthrough', 'udp'] as const;

/** typedefs.uuid (`id`): Kong accepts any 8-4-4-4-12 hex string. */
export const ID: Field = { type: 'string', uuid: true };

/** typedefs.tags: a set of printable tags (no `,` or `/`). */
export const TAGS: Field = {
  type: 'set',
  elements: {
    type: 'string',
    custom: (tag: string) =>
      // printable ASCII except ',' and '/', plus any non-ASCII (typedefs.lua validate_tag)
      /^[ !-+\-.0-~\u0080-\u{10FFFF}]+$/u.test(tag)
        ? undefined
        : `invalid tag '${tag}': expected printable ascii (except \`,\` and \`/\`) or valid utf-8 sequences`,
  },
};

/** typedefs.utf8_name: unique names of services and routes. */
export const UTF8_NAME: Field = {
  type: 'string',
  custom: (name: string) =>
    /^[A-Za-z0-9.\-_~\u0080-\u{10FFFF}]+$/u.test(name)
      ? undefined
      : `invalid value '${name}': the only accepted ascii characters are alphanumerics or ., -, _, and ~`,
};

/** typedefs.protocol. */
export const PROTOCOL: Field = { type: 'string', oneOf: PROTOCOLS };

/** typedefs.host: hostname or IP, no port. */
export const HOST: Field = { type: 'string', custom: validateHost };

/** typedefs.host_with_optional_port. */
export const HOST_WITH_OPTIONAL_PORT: Field = { type: 'string', custom: validateHostWithOptionalPort };

/** typedefs.sni. */
export const SNI: Field = { type: 'string', custom: validateSni };

/** typedefs.wildcard_host. */
export const WILDCARD_HOST: Field = { type: 'string', custom: validateWildcardHost };

/** typedefs.port. */
export const PORT: Field = { type: 'integer', between: [0, 65535] };

/** typedefs.path: "/…", no empty segments, RFC 3986 characters. */
export const PATH: Field = {
  type: 'string',
  startsWith: '/',
  matchNone: [{ pattern: /\/\//, err: 'must not have empty segments' }],
  custom: validatePath,
};

/** kong/tools/http.lua validate_header_name. */
export function validateHeaderName(name: string): string | undefined {
  if (name === '') return 'no header name provided';
  return /^[a-zA-Z0-9\-_]+$/.test(name)
    ? undefined
    : `bad header name '${name}', allowed characters are A-Z, a-z, 0-9, '_', and '-'`;
}

/** typedefs.header_name. */
export const HEADER_NAME: Field = { type: 'string', custom: validateHeaderName };

/** typedefs.headers: header name → array of strings. */
export const HEADERS: Field = {
  type: 'map',
  keys: HEADER_NAME,
  values: { type: 'array', elements: { type: 'string' } },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A foreign key of a child nested in its parent, which the parent fills. Kong's first validation
 * forbids it (copy_record: `eq = null`) but its second, with the foreign keys resolved, takes a
 * name, id or `{ id }` that names an existing entity (03-flatten_spec.lua:1407, :1475): so a name
 * or id passes here and must resolve (resolve-entities.ts), and anything else keeps the first
 * validation's "value must be null". The parent's key wins over the one written.
 */
export const NESTED_FOREIGN: Field = {
  type: 'foreign',
  custom: (v: unknown) =>
    typeof v === 'string' || (typeof v === 'object' && v !== null && !Array.isArray(v) && UUID.test(String((v as { id?: unknown }).id)))
      ? undefined
      : 'value must be null',
};

/** A foreign key at the top level: the referenced entity's name, its id, or `{ id }`. */
export function topLevelForeign(required: boolean): Field {
  return {
    type: 'foreign',
    required,
    custom: (v: unknown) =>
      typeof v === 'string' || (typeof v === 'object' && v !== null && typeof (v as { id?: unknown }).id === 'string')
        ? undefined
        : 'expected a string',
  };
}
