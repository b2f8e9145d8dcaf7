// kong/plugins/rate-limiting/schema.lua as data, in its DB-less form (policy `local` or
// `redis`; `cluster` needs a database), with kong/tools/redis/schema.lua's redis record.
import type { Field, Input } from '../../declarative/schema.ts';
import { HEADER_NAME, HOST, PATH, PORT, SNI } from '../../declarative/entities/common.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { PERIODS } from './periods.ts';

const SYNC_RATE_REALTIME = -1;
/** Kong's `gt = 0` on a number. */
export const POSITIVE: Field = { type: 'number', custom: (v: number) => (v > 0 ? undefined : 'value must be greater than 0') };

/** kong/tools/redis/schema.lua: where a redis policy counts. */
export const REDIS_CONFIG: Field = {
  type: 'record',
  default: {},
  record: {
    fields: [
      ['host', HOST],
      ['port', { ...PORT, default: 6379 }],
      ['timeout', { type: 'integer', between: [0, 2 ** 31 - 2], default: 2000 }],
      ['username', { type: 'string' }],
      ['password', { type: 'string', lenMin: 0 }],
      ['database', { type: 'integer', default: 0 }],
      ['ssl', { type: 'boolean', default: false }],
      ['ssl_verify', { type: 'boolean', default: false }],
      ['server_name', SNI],
    ],
  },
};

// Kong's deprecated flat redis_* fields (until 4.0): moved into `redis` before validation.
const REDIS_SHORTHANDS = ['host', 'port', 'password', 'username', 'ssl', 'ssl_verify', 'server_name', 'timeout', 'database'];

/** The config shorthands: `redis_host: x` is `redis: { host: x }`. */
export function redisShorthands(input: Input): Input {
  let out = input;
  for (const name of REDIS_SHORTHANDS) {
    const key = `redis_${name}`;
    if (!(key in input)) continue;
    const { [key]: value, ...rest } = out;
    const redis = typeof rest.redis === 'object' && rest.redis !== null ? (rest.redis as Input) : {};
    out = { ...rest, redis: { ...redis, [name]: value } };
  }
  return out;
}

// Kong's validate_periods_order: a longer period may not allow fewer requests; sync_rate only with redis.
function validatePeriods(config: Readonly<Record<string, unknown>>): string | undefined {
  for (let i = 0; i < PERIODS.length; i++) {
    const lower = config[PERIODS[i]!];
    if (typeof lower !== 'number') continue;
    for (let j = i + 1; j < PERIODS.length; j++) {
      const upper = config[PERIODS[j]!];
      if (typeof upper === 'number' && upper < lower) {
        return `The limit for ${PERIODS[j]}(${upper.toFixed(1)}) cannot be lower than the limit for ${PERIODS[i]}(${lower.toFixed(1)})`;
      }
    }
  }
  const syncRate = config.sync_rate as number;
  if (config.policy !== 'redis' && syncRate !== SYNC_RATE_REALTIME) return 'sync_rate can only be used with the redis policy';
  if (config.policy === 'redis' && syncRate !== SYNC_RATE_REALTIME) {
    if (syncRate < 0.02) return 'sync_rate must be greater than 0.02, or -1 to disable';
    // Kong's periodic sync batches increments in each worker and makes the shared limit
    // approximate; here every request counts in Redis at once.
    return 'sync_rate is not supported by this gateway (every request counts in Redis: use -1)';
  }
  return undefined;
}

/**
 * Kong DB-less: local or redis. `cluster` keeps its counters in Kong's database, which a
 * DB-less node has not: its schema lists only the two (rate-limiting/schema.lua policy one_of).
 */
export const POLICY: Field = { type: 'string', default: 'local', lenMin: 0, oneOf: ['local', 'redis'] };

/** Kong's entity checks of a redis policy: the connection fields it needs. */
export const REDIS_POLICY_CHECKS = ['config.redis.host', 'config.redis.port', 'config.redis.timeout'].map((field) => ({
  conditional: { if_field: 'config.policy', if_match: { eq: 'redis' }, then_field: field, then_match: { required: true as const } },
}));

/** rate-limiting: requests per period, counted per consumer, consumer group, credential, address, service, header or path. */
export const RATE_LIMITING_SCHEMA: PluginSchema = {
  name: 'rate-limiting',
  priority: 910,
  consumerScoped: true,
  config: {
    shorthands: redisShorthands,
    fields: [
      ...PERIODS.map((p): [string, Field] => [p, POSITIVE]),
      // consumer-group: Kong Gateway's value (its open-source schema lacks it).
      ['limit_by', { type: 'string', default: 'consumer', oneOf: ['consumer', 'consumer-group', 'credential', 'ip', 'service', 'header', 'path'] }],
      ['header_name', HEADER_NAME],
      ['path', PATH],
      ['policy', POLICY],
      // A data store that cannot be reached lets requests through (and logs); false: 500.
      ['fault_tolerant', { type: 'boolean', required: true, default: true }],
      ['redis', REDIS_CONFIG],
      ['hide_client_headers', { type: 'boolean', required: true, default: false }],
      ['error_code', { ...POSITIVE, default: 429 }],
      ['error_message', { type: 'string', default: 'API rate limit exceeded' }],
      ['sync_rate', { type: 'number', required: true, default: SYNC_RATE_REALTIME }],
    ],
  },
  configValidator: validatePeriods,
  entityChecks: [
    { at_least_one_of: PERIODS.map((p) => `config.${p}`) },
    ...REDIS_POLICY_CHECKS,
    { conditional: { if_field: 'config.limit_by', if_match: { eq: 'header' }, then_field: 'config.header_name', then_match: { required: true } } },
    { conditional: { if_field: 'config.limit_by', if_match: { eq: 'path' }, then_field: 'config.path', then_match: { required: true } } },
  ],
};
