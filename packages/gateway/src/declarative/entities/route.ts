// kong/db/schema/entities/routes.lua and routes_subschemas.lua (traditional_compatible router).
import type { CheckContext, Field, FieldTable, Input, RecordSchema } from '../schema.ts';
import { conditional, isNonEmpty, quotedList } from '../schema.ts';
import { normalizeIp } from '../host-names.ts';
import { normalizePath, validatePathCharacters } from '../normalize-path.ts';
import { validateHeaderRegex, validateRouteRegex } from '../pcre-regex.ts';
import { HEADER_NAME, ID, PORT, PROTOCOL, TAGS, UTF8_NAME, WILDCARD_HOST } from './common.ts';

// typedefs.lua validate_host_with_wildcards: wildcards stand in for a label.
function validateRouteHost(host: string): string | undefined {
  const r = normalizeIp(host.replace(/\*/g, 'abc'));
  return r.ok ? undefined : r.error;
}

// typedefs.lua validate_path_with_regexes: prefix paths must be normalised; regexes must compile.
function validateRoutePath(path: string): string | undefined {
  // Kong runs typedefs.path's check on the whole value and keeps only its percent-encoding
  // verdict; a `~` path always fails that check's first pattern, so regexes skip it.
  if (!path.startsWith('~')) {
    const chars = validatePathCharacters(path);
    if (chars?.kind === 'percent') return chars.error;
    const normalized = normalizePath(path, true);
    return path === normalized ? undefined : `non-normalized path, consider use '${normalized}' instead`;
  }
  return validateRouteRegex(path.slice(1));
}

const ENDPOINT: Field = {
  type: 'record',
  record: {
    fields: [
      ['ip', { type: 'string', custom: (ip: string) => (isIpOrCidr(ip) ? undefined : `invalid ip or cidr range: '${ip}'`) }],
      ['port', PORT],
    ],
    checks: [
      (ctx) => {
        if (!isNonEmpty(ctx.entity.ip) && !isNonEmpty(ctx.entity.port)) {
          ctx.entityError(`at least one of these fields must be non-empty: ${quotedList(['ip', 'port'])}`);
        }
      },
    ],
  },
};

function isIpOrCidr(value: string): boolean {
  const [ip = '', prefix, extra] = value.split('/');
  if (extra !== undefined) return false;
  const r = normalizeIp(ip);
  if (!r.ok || r.value.type === 'name' || r.value.port !== undefined) return false;
  if (prefix === undefined) return true;
  const max = r.value.type === 'ipv4' ? 32 : 128;
  return /^\d+$/.test(prefix) && Number(prefix) <= max;
}

/** The route field table (defaults included); `foreign` is how `service` may be written. */
export const ROUTE_FIELDS = (foreign: Field): FieldTable => [
  ['id', ID],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  ['name', UTF8_NAME],
  // An array of the protocols this Route should allow.
  [
    'protocols',
    {
      type: 'set',
      lenMin: 1,
      required: true,
      elements: PROTOCOL,
      mutuallyExclusiveSubsets: [['http', 'https'], ['tcp', 'tls', 'udp'], ['tls_passthrough'], ['grpc', 'grpcs']],
      default: ['http', 'https'],
    },
  ],
  // The status code Kong responds with when all properties of a Route match except the protocol.
  ['https_redirect_status_code', { type: 'integer', oneOf: [426, 301, 302, 307, 308], default: 426, required: true }],
  ['strip_path', { type: 'boolean', required: true, default: true }],
  ['preserve_host', { type: 'boolean', required: true, default: false }],
  ['request_buffering', { type: 'boolean', required: true, default: true }],
  ['response_buffering', { type: 'boolean', required: true, default: true }],
  ['tags', TAGS],
  ['service', foreign],
  // traditional_compatible: SNIs may be wildcards.
  ['snis', { type: 'set', elements: WILDCARD_HOST }],
  ['sources', { type: 'set', elements: ENDPOINT }],
  ['destinations', { type: 'set', elements: ENDPOINT }],
  ['methods', { type: 'set', elements: { type: 'string', match: /^[A-Z]+$/ } }],
  [
    'hosts',
    {
      type: 'array',
      elements: {
        type: 'string',
        matchAll: [{ pattern: /^[^*]*\*?[^*]*$/, err: 'invalid wildcard: must have at most one wildcard' }],
        matchAny: {
          patterns: [/^\*\./, /\.\*$/, /^[^*]*$/],
          err: 'invalid wildcard: must be placed at leftmost or rightmost label',
        },
        custom: validateRouteHost,
      },
    },
  ],
  [
    'paths',
    {
      type: 'array',
      elements: {
        type: 'string',
        matchNone: [{ pattern: /\/\//, err: 'must not have empty segments' }],
        matchAny: { patterns: [/^\//, /^~\//], err: 'should start with: / (fixed path) or ~/ (regex path)' },
        custom: validateRoutePath,
      },
    },
  ],
  [
    'headers',
    {
      type: 'map',
      keys: {
        ...HEADER_NAME,
        matchNone: [
          { pattern: /^host$/i, err: "cannot contain 'host' header, which must be specified in the 'hosts' attribute" },
        ],
      },
      // A value starting with "~*" is a case-insensitive regex: it must compile.
      values: {
        type: 'array',
        elements: { type: 'string', custom: (v: string) => (v.startsWith('~*') ? validateHeaderRegex(v.slice(2)) : undefined) },
      },
    },
  ],
  // Which route resolves a request when several regex paths match; higher first.
  ['regex_priority', { type: 'integer', default: 0 }],
  // v1 is deprecated and does not work with the traditional_compatible router.
  ['path_handling', { type: 'string', default: 'v0', oneOf: ['v0', 'v1'] }],
];

type Subschema = {
  readonly banned: readonly (readonly [string, string])[];
  readonly check: (ctx: CheckContext, protocols: readonly string[]) => void;
};

const HTTP_BANS = "when 'protocols' is 'http' or 'https'";
const STREAM_BANS = "when 'protocols' is 'tcp', 'tls', 'tls_passthrough' or 'udp'";
const GRPC_BANS = "when 'protocols' is 'grpc' or 'grpcs'";

function atLeastOneOf(ctx: CheckContext, names: readonly string[], err: string): void {
  if (!names.some((n) => isNonEmpty(ctx.entity[n]))) ctx.entityError(err.replace('%s', quotedList(names)));
}

// routes_subschemas.lua: the first protocol selects the subschema.
const HTTP: Subschema = {
  banned: [
    ['sources', `cannot set 'sources' ${HTTP_BANS}`],
    ['destinations', `cannot set 'destinations' ${HTTP_BANS}`],
  ],
  check: (ctx, protocols) => {
    if (protocols.includes('https')) {
      atLeastOneOf(ctx, ['methods', 'hosts', 'headers', 'paths', 'snis'], "must set one of %s when 'protocols' is 'https'");
    } else if (protocols.includes('http')) {
      atLeastOneOf(ctx, ['methods', 'hosts', 'headers', 'paths'], "must set one of %s when 'protocols' is 'http'");
    }
  },
};
const STREAM: Subschema = {
  banned: [
    ['methods', `cannot set 'methods' ${STREAM_BANS}`],
    ['hosts', `cannot set 'hosts' ${STREAM_BANS}`],
    ['paths', `cannot set 'paths' ${STREAM_BANS}`],
    ['headers', `cannot set 'headers' ${STREAM_BANS}`],
  ],
  check: (ctx, protocols) => {
    if (protocols.some((p) => ['tcp', 'tls', 'udp'].includes(p))) {
      atLeastOneOf(ctx, ['sources', 'destinations', 'snis'], "must set one of %s when 'protocols' is 'tcp', 'tls' or 'udp'");
    }
    if (protocols.includes('tls_passthrough')) atLeastOneOf(ctx, ['snis'], "must set snis when 'protocols' is 'tls_passthrough'");
  },
};
const GRPC: Subschema = {
  banned: [
    ['methods', `cannot set 'methods' ${GRPC_BANS}`],
    ['sources', `cannot set 'sources' ${GRPC_BANS}`],
    ['destinations', `cannot set 'destinations' ${GRPC_BANS}`],
  ],
  check: (ctx, protocols) => {
    if (ctx.entity.strip_path === true) ctx.fieldError('strip_path', `cannot set 'strip_path' ${GRPC_BANS}`);
    if (protocols.includes('grpcs')) {
      atLeastOneOf(ctx, ['hosts', 'headers', 'paths', 'snis'], "must set one of %s when 'protocols' is 'grpcs'");
    } else {
      atLeastOneOf(ctx, ['hosts', 'headers', 'paths'], "must set one of %s when 'protocols' is 'grpc'");
    }
  },
};
const SUBSCHEMAS: Readonly<Record<string, Subschema>> = {
  http: HTTP, https: HTTP, tcp: STREAM, tls: STREAM, udp: STREAM, tls_passthrough: STREAM, grpc: GRPC, grpcs: GRPC,
};

function protocolChecks(ctx: CheckContext): void {
  if (ctx.hasError('protocols')) return;
  const protocols = ctx.entity.protocols as readonly string[];
  const sub = SUBSCHEMAS[protocols[0] ?? ''];
  if (sub === undefined) return;
  for (const [field, err] of sub.banned) if (isNonEmpty(ctx.entity[field])) ctx.fieldError(field, err);
  sub.check(ctx, protocols);
}

// routes.lua: snis only when a TLS protocol is among the protocols.
const TLS_PROTOCOLS = ['grpcs', 'https', 'tls', 'tls_passthrough'];
const snisNeedTls = conditional(
  'protocols',
  (v) => Array.isArray(v) && v.every((p) => !TLS_PROTOCOLS.includes(p as string)),
  'snis',
  { type: 'set', custom: (v: unknown[]) => (v.length === 0 ? undefined : 'length must be 0') },
  "'snis' can only be set when 'protocols' is 'grpcs', 'https', 'tls' or 'tls_passthrough'",
);

// routes_subschemas.lua: the grpc subschema redeclares strip_path with `default = false`, so a
// grpc route that does not mention strip_path gets false (only an explicit true is an error).
function grpcStripPathDefault(input: Input): Input {
  const protocols = input.protocols;
  if (!Array.isArray(protocols) || (protocols[0] !== 'grpc' && protocols[0] !== 'grpcs')) return input;
  if (input.strip_path !== undefined && input.strip_path !== null) return input;
  return { ...input, strip_path: false };
}

// routes.lua: `subschema_key = "protocols"`, one subschema per protocol (routes_subschemas.lua).
const SUBSCHEMA_KEY = { field: 'protocols', known: new Set(Object.keys(SUBSCHEMAS)) };

/** The route record schema. */
export function routeSchema(foreign: Field): RecordSchema {
  return { fields: ROUTE_FIELDS(foreign), shorthands: grpcStripPathDefault, checks: [snisNeedTls, protocolChecks], subschemaKey: SUBSCHEMA_KEY };
}
