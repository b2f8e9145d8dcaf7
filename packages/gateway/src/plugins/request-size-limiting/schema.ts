// kong/plugins/request-size-limiting/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

/** Kong's size units and their factors (handler.lua unit_multiplication_factor). */
export const SIZE_UNITS = { megabytes: 1024 * 1024, kilobytes: 1024, bytes: 1 } as const;

/** request-size-limiting: refuses request bodies over a size. */
export const REQUEST_SIZE_LIMITING_SCHEMA: PluginSchema = {
  name: 'request-size-limiting',
  priority: 951,
  consumerScoped: true,
  config: {
    fields: [
      ['allowed_payload_size', { type: 'integer', default: 128 }],
      ['size_unit', { type: 'string', required: true, default: 'megabytes', oneOf: Object.keys(SIZE_UNITS) }],
      ['require_content_length', { type: 'boolean', required: true, default: false }],
    ],
  },
};
