// kong/plugins/response-ratelimiting/schema.lua as data, in its DB-less form (policy `local` or
// `redis`), with the redis record and the deprecated redis_* shorthands of rate-limiting.
import type { Field } from '../../declarative/schema.ts';
import { atLeastOneOf } from '../../declarative/schema.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { PERIODS } from '../rate-limiting/periods.ts';
import { POLICY, POSITIVE, REDIS_CONFIG, REDIS_POLICY_CHECKS, redisShorthands } from '../rate-limiting/schema.ts';

// Kong's validate_periods_order for one limit (lower-case "the", unlike rate-limiting's).
function periodsInOrder(limit: Readonly<Record<string, unknown>>): string | undefined {
  for (let i = 0; i < PERIODS.length; i++) {
    const lower = limit[PERIODS[i]!];
    if (typeof lower !== 'number') continue;
    for (let j = i + 1; j < PERIODS.length; j++) {
      const upper = limit[PERIODS[j]!];
      if (typeof upper === 'number' && upper < lower) {
        return `the limit for ${PERIODS[j]}(${upper.toFixed(1)}) cannot be lower than the limit for ${PERIODS[i]}(${lower.toFixed(1)})`;
      }
    }
  }
  return undefined;
}

/** One named limit: allowed units per period. */
const LIMIT: Field = {
  type: 'record',
  required: true,
  record: { fields: PERIODS.map((p): [string, Field] => [p, POSITIVE]), checks: [atLeastOneOf(PERIODS)] },
  custom: periodsInOrder,
};

// A limit's name is part of header names (X-RateLimit-Remaining-<name>): refused at load when it
// could not be one (Kong takes any string and fails when it sets the header).
const LIMIT_NAME: Field = {
  type: 'string',
  custom: (v: string) => (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v) ? undefined : `'${v}' cannot be part of a header name (X-RateLimit-Remaining-<name>)`),
};

/** response-ratelimiting: per named counter, units the upstream reports in a response header. */
export const RESPONSE_RATELIMITING_SCHEMA: PluginSchema = {
  name: 'response-ratelimiting',
  priority: 900,
  consumerScoped: true,
  config: {
    shorthands: redisShorthands,
    fields: [
      ['header_name', { type: 'string', default: 'x-kong-limit' }],
      ['limit_by', { type: 'string', default: 'consumer', oneOf: ['consumer', 'credential', 'ip'] }],
      ['policy', POLICY],
      ['fault_tolerant', { type: 'boolean', required: true, default: true }],
      ['redis', REDIS_CONFIG],
      ['block_on_first_violation', { type: 'boolean', required: true, default: false }],
      ['hide_client_headers', { type: 'boolean', required: true, default: false }],
      ['limits', {
        type: 'map', required: true, keys: LIMIT_NAME, values: LIMIT,
        custom: (v: Readonly<Record<string, unknown>>) => (Object.keys(v).length >= 1 ? undefined : 'length must be at least 1'),
      }],
    ],
  },
  entityChecks: REDIS_POLICY_CHECKS,
};
