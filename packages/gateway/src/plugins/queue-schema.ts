// kong/tools/queue_schema.lua (typedefs.queue), as data.
import type { Field } from '../declarative/schema.ts';

/** The `queue` record of http-log and other queued plugins, with Kong's defaults. */
export const QUEUE_FIELD: Field = {
  type: 'record',
  required: true,
  default: {},
  record: {
    fields: [
      ['max_batch_size', { type: 'integer', default: 1, between: [1, 1_000_000] }],
      ['max_coalescing_delay', { type: 'number', default: 1, between: [0, 3600] }],
      ['max_entries', { type: 'integer', default: 10_000, between: [1, 1_000_000] }],
      ['max_bytes', { type: 'integer' }],
      ['max_retry_time', { type: 'number', default: 60 }],
      ['initial_retry_delay', { type: 'number', default: 0.01, between: [0.001, 1_000_000] }],
      ['max_retry_delay', { type: 'number', default: 60, between: [0.001, 1_000_000] }],
      ['concurrency_limit', { type: 'integer', default: 1, oneOf: [-1, 1] }],
    ],
  },
};

/** Kong's typedefs.lua_code fields (custom_fields_by_lua): this gateway runs no Lua. */
export const NO_LUA_FIELD: Field = {
  type: 'map',
  keys: { type: 'string' },
  values: { type: 'string' },
  custom: (v: Record<string, string> | null) => (v != null && Object.keys(v).length > 0 ? 'custom_fields_by_lua is not supported by this gateway (it runs no Lua)' : undefined),
};
