// kong/db/schema/entities/upstreams.lua, as data. The healthchecks record is built, as in Kong,
// from one literal of defaults commented in place.
import type { Field, FieldTable, Input, RecordSchema } from '../schema.ts';
import { conditional, distinct } from '../schema.ts';
import { normalizeIp } from '../host-names.ts';
import { HEADER_NAME, HEADERS, HOST_WITH_OPTIONAL_PORT, ID, PATH, SNI, TAGS } from './common.ts';

/** Kong's default `healthchecks` object, byte-identical to its admin API output (Kong's 03-flatten_spec.lua). */
export const HEALTHCHECKS_DEFAULTS = {
  active: {
    type: 'http',
    timeout: 1,
    concurrency: 10,
    http_path: '/',
    https_sni: null,
    https_verify_certificate: true,
    headers: null,
    healthy: {
      interval: 0, // 0 = probing disabled by default
      http_statuses: [200, 302],
      successes: 0, // 0 = disabled by default
    },
    unhealthy: {
      interval: 0, // 0 = probing disabled by default
      http_statuses: [429, 404, 500, 501, 502, 503, 504, 505],
      tcp_failures: 0, // 0 = disabled by default
      timeouts: 0, // 0 = disabled by default
      http_failures: 0, // 0 = disabled by default
    },
  },
  passive: {
    type: 'http',
    healthy: {
      http_statuses: [200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303, 304, 305, 306, 307, 308],
      successes: 0,
    },
    unhealthy: {
      http_statuses: [429, 500, 503],
      tcp_failures: 0, // 0 = circuit-breaker disabled by default
      timeouts: 0, // 0 = circuit-breaker disabled by default
      http_failures: 0, // 0 = circuit-breaker disabled by default
    },
  },
  threshold: 0,
} as const;

const httpStatuses = (def: readonly number[]): Field => ({
  type: 'array',
  elements: { type: 'integer', between: [100, 999] },
  default: def,
});
const seconds = (def: number): Field => ({ type: 'number', between: [0, 65535], default: def });
const oneByteInteger = (def: number): Field => ({ type: 'integer', between: [0, 255], default: def });
const checkType: Field = { type: 'string', oneOf: ['tcp', 'http', 'https', 'grpc', 'grpcs'], default: 'http' };

const record = (fields: FieldTable, def: unknown): Field => ({ type: 'record', record: { fields }, default: def });

const A = HEALTHCHECKS_DEFAULTS.active;
const P = HEALTHCHECKS_DEFAULTS.passive;

const ACTIVE: Field = record(
  [
    ['type', checkType],
    ['timeout', seconds(A.timeout)],
    ['concurrency', { type: 'integer', between: [1, 2 ** 31], default: A.concurrency }],
    ['http_path', { ...PATH, default: A.http_path }],
    ['https_sni', SNI],
    ['https_verify_certificate', { type: 'boolean', required: true, default: A.https_verify_certificate }],
    ['headers', HEADERS],
    [
      'healthy',
      record(
        [
          ['interval', seconds(A.healthy.interval)],
          ['http_statuses', httpStatuses(A.healthy.http_statuses)],
          ['successes', oneByteInteger(A.healthy.successes)],
        ],
        A.healthy,
      ),
    ],
    [
      'unhealthy',
      record(
        [
          ['interval', seconds(A.unhealthy.interval)],
          ['http_statuses', httpStatuses(A.unhealthy.http_statuses)],
          ['tcp_failures', oneByteInteger(A.unhealthy.tcp_failures)],
          ['timeouts', oneByteInteger(A.unhealthy.timeouts)],
          ['http_failures', oneByteInteger(A.unhealthy.http_failures)],
        ],
        A.unhealthy,
      ),
    ],
  ],
  A,
);

const PASSIVE: Field = record(
  [
    ['type', checkType],
    [
      'healthy',
      record(
        [
          ['http_statuses', httpStatuses(P.healthy.http_statuses)],
          ['successes', oneByteInteger(P.healthy.successes)],
        ],
        P.healthy,
      ),
    ],
    [
      'unhealthy',
      record(
        [
          ['http_statuses', httpStatuses(P.unhealthy.http_statuses)],
          ['tcp_failures', oneByteInteger(P.unhealthy.tcp_failures)],
          ['timeouts', oneByteInteger(P.unhealthy.timeouts)],
          ['http_failures', oneByteInteger(P.unhealthy.http_failures)],
        ],
        P.unhealthy,
      ),
    ],
  ],
  P,
);

const HEALTHCHECKS: Field = record(
  [
    ['active', ACTIVE],
    ['passive', PASSIVE],
    ['threshold', { type: 'number', between: [0, 100], default: HEALTHCHECKS_DEFAULTS.threshold }],
  ],
  HEALTHCHECKS_DEFAULTS,
);

const HASH_ON: Field = {
  type: 'string',
  default: 'none',
  oneOf: ['none', 'consumer', 'ip', 'header', 'cookie', 'path', 'query_arg', 'uri_capture'],
};

// upstreams.lua validate_name: a hostname, no IP, no port.
function validateUpstreamName(name: string): string | undefined {
  const r = normalizeIp(name);
  if (!r.ok) return `Invalid name ('${name}'); must be a valid hostname`;
  if (r.value.type !== 'name') return `Invalid name ('${name}'); no ip addresses allowed`;
  if (r.value.port !== undefined) return `Invalid name ('${name}'); no port allowed`;
  return undefined;
}

const SIMPLE_PARAM: Field = { type: 'string', lenMin: 1 };

/** The upstream field table (defaults included); `foreign` is how `client_certificate` may be written. */
export const UPSTREAM_FIELDS = (foreign: Field): FieldTable => [
  ['id', ID],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  // A hostname; a service whose host equals it is balanced over its targets.
  ['name', { type: 'string', required: true, custom: validateUpstreamName }],
  ['algorithm', { type: 'string', default: 'round-robin', oneOf: ['consistent-hashing', 'least-connections', 'round-robin', 'latency'] }],
  ['hash_on', HASH_ON],
  ['hash_fallback', HASH_ON],
  ['hash_on_header', HEADER_NAME],
  ['hash_fallback_header', HEADER_NAME],
  ['hash_on_cookie', { type: 'string', custom: validateCookieName }],
  ['hash_on_cookie_path', { ...PATH, default: '/' }],
  ['hash_on_query_arg', SIMPLE_PARAM],
  ['hash_fallback_query_arg', SIMPLE_PARAM],
  ['hash_on_uri_capture', SIMPLE_PARAM],
  ['hash_fallback_uri_capture', SIMPLE_PARAM],
  // Only sizes the consistent-hashing continuum (kong/runloop/balancer/consistent_hashing.lua); round-robin ignores it.
  ['slots', { type: 'integer', default: 10000, between: [10, 2 ** 16] }],
  ['healthchecks', HEALTHCHECKS],
  ['tags', TAGS],
  ['host_header', HOST_WITH_OPTIONAL_PORT],
  ['client_certificate', foreign],
  ['use_srv_name', { type: 'boolean', default: false }],
];

// kong/tools/http.lua validate_http_token, used for cookie names.
function validateCookieName(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  return /[\x00-\x20\x7f()<>@,;:\\"/?={}[\]]/.test(name)
    ? 'contains one or more invalid characters. ASCII control characters (0-31;127), space, tab and the characters ()<>@,;:\\"/?={}[] are not allowed.'
    : undefined;
}

// The algorithm/hash_on shorthands run in this order (kong/db/schema/entities/upstreams.lua): least-connections and
// latency drop hash_on; then hash_on none means round-robin, anything else consistent-hashing.
function algorithmCoupling(input: Input): Input {
  const out: Input = { ...input };
  if (out.algorithm === 'least-connections' || out.algorithm === 'latency') out.hash_on = null;
  if ('hash_on' in out) {
    if (out.hash_on === null) out.hash_on = 'none';
    else if (out.hash_on === 'none') out.algorithm = 'round-robin';
    else if (typeof out.hash_on === 'string') out.algorithm = 'consistent-hashing';
  }
  return out;
}

const is = (value: string) => (v: unknown) => v === value;
const required: Field = { type: 'string', required: true };
const fallbackOneOf = (values: readonly string[]): Field => ({ type: 'string', oneOf: values });

/** The upstream record schema. */
export function upstreamSchema(foreign: Field): RecordSchema {
  return {
    fields: UPSTREAM_FIELDS(foreign),
    shorthands: algorithmCoupling,
    checks: [
      conditional('hash_on', is('header'), 'hash_on_header', required),
      conditional('hash_fallback', is('header'), 'hash_fallback_header', required),
      conditional('hash_on', is('cookie'), 'hash_on_cookie', required),
      conditional('hash_fallback', is('cookie'), 'hash_on_cookie', required),
      conditional('hash_on', is('none'), 'hash_fallback', fallbackOneOf(['none'])),
      conditional('hash_on', is('cookie'), 'hash_fallback', fallbackOneOf(['none'])),
      conditional('hash_on', is('consumer'), 'hash_fallback', fallbackOneOf(['none', 'ip', 'header', 'cookie', 'path', 'query_arg', 'uri_capture'])),
      conditional('hash_on', is('ip'), 'hash_fallback', fallbackOneOf(['none', 'consumer', 'header', 'cookie', 'path', 'query_arg', 'uri_capture'])),
      conditional('hash_on', is('path'), 'hash_fallback', fallbackOneOf(['none', 'consumer', 'header', 'cookie', 'query_arg', 'ip', 'uri_capture'])),
      distinct(['hash_on_header', 'hash_fallback_header']),
      conditional('hash_on', is('query_arg'), 'hash_on_query_arg', required),
      conditional('hash_fallback', is('query_arg'), 'hash_fallback_query_arg', required),
      distinct(['hash_on_query_arg', 'hash_fallback_query_arg']),
      conditional('hash_on', is('uri_capture'), 'hash_on_uri_capture', required),
      conditional('hash_fallback', is('uri_capture'), 'hash_fallback_uri_capture', required),
      distinct(['hash_on_uri_capture', 'hash_fallback_uri_capture']),
    ],
  };
}
