// kong/db/schema/entities/services.lua, as data.
import type { ErrTable, Field, FieldTable, Input, RecordSchema } from '../schema.ts';
import { conditional } from '../schema.ts';
import { HOST, ID, PATH, PORT, PROTOCOL, TAGS, UTF8_NAME } from './common.ts';

const DEFAULT_PROTOCOL = 'http';
const DEFAULT_PORT = 80;

// nonzero_timeout: milliseconds, 1 .. 2^31-2.
const nonzeroTimeout = (def: number): Field => ({ type: 'integer', between: [1, 2 ** 31 - 2], default: def });

/** The service field table (defaults included). */
export const SERVICE_FIELDS = (foreign: Field): FieldTable => [
  ['id', ID],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  ['name', UTF8_NAME],
  // The number of retries to execute upon failure to proxy.
  ['retries', { type: 'integer', default: 5, between: [0, 32767] }],
  ['protocol', { ...PROTOCOL, required: true, default: DEFAULT_PROTOCOL }],
  ['host', { ...HOST, required: true }],
  // 80 even for https: only the `url` shorthand infers 443 (kong/db/schema/entities/services.lua).
  ['port', { ...PORT, required: true, default: DEFAULT_PORT }],
  ['path', PATH],
  ['connect_timeout', nonzeroTimeout(60000)],
  ['write_timeout', nonzeroTimeout(60000)],
  ['read_timeout', nonzeroTimeout(60000)],
  ['tags', TAGS],
  ['client_certificate', foreign],
  ['tls_verify', { type: 'boolean' }],
  ['tls_verify_depth', { type: 'integer', between: [0, 64] }],
  ['ca_certificates', { type: 'array', elements: { type: 'string', uuid: true } }],
  ['enabled', { type: 'boolean', required: true, default: true }],
];

const mustBeNull: Field = { type: 'foreign', mustBeNull: true };
const oneOf = (values: readonly string[]) => (v: unknown) => values.includes(v as string);
const notOneOf = (values: readonly string[]) => (v: unknown) => !values.includes(v as string);

// socket.url.parse, reduced: scheme://host[:port][/path]; the port infers the scheme and back.
function urlShorthand(input: Input, errors: ErrTable): Input {
  if (!('url' in input)) return input;
  const { url, ...rest } = input;
  if (typeof url !== 'string') {
    errors.set('url', 'expected a string');
    return rest;
  }
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/(\[[^\]]*\]|[^:/?#]*)(?::(\d*))?)?([^?#]*)/.exec(url);
  const scheme = m?.[1]?.toLowerCase();
  const host = m?.[2] === undefined || m[2] === '' ? null : m[2];
  const port = m?.[3] === undefined || m[3] === '' ? undefined : Number(m[3]);
  const path = m?.[4] === undefined || m[4] === '' ? null : m[4];
  const inferred = port === 80 ? 'http' : port === 443 ? 'https' : undefined;
  const protocol = scheme ?? inferred ?? DEFAULT_PROTOCOL;
  const defaultPort = protocol === 'http' ? 80 : protocol === 'https' ? 443 : DEFAULT_PORT;
  return { ...rest, protocol, host, port: port ?? defaultPort, path };
}

/** The service record schema; `foreign` is how `client_certificate` may be written here. */
export function serviceSchema(foreign: Field): RecordSchema {
  return {
    fields: SERVICE_FIELDS(foreign),
    shorthands: urlShorthand,
    checks: [
      conditional('protocol', oneOf(['tcp', 'tls', 'udp', 'grpc', 'grpcs']), 'path', mustBeNull),
      conditional('protocol', notOneOf(['https', 'tls']), 'client_certificate', mustBeNull),
      conditional('protocol', notOneOf(['https', 'tls']), 'tls_verify', mustBeNull),
      conditional('protocol', notOneOf(['https', 'tls']), 'tls_verify_depth', mustBeNull),
      conditional('protocol', notOneOf(['https', 'tls']), 'ca_certificates', mustBeNull),
    ],
  };
}
