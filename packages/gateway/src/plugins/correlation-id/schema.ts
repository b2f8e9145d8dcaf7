// kong/plugins/correlation-id/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';
import { HEADER_NAME } from '../../declarative/entities/common.ts';

/** correlation-id: a request id header for the upstream (and back to the client). */
export const CORRELATION_ID_SCHEMA: PluginSchema = {
  name: 'correlation-id',
  priority: 100001,
  consumerScoped: true,
  config: {
    fields: [
      ['header_name', { ...HEADER_NAME, default: 'Kong-Request-ID' }],
      ['generator', { type: 'string', required: true, default: 'uuid#counter', oneOf: ['uuid', 'uuid#counter', 'tracker'] }],
      ['echo_downstream', { type: 'boolean', required: true, default: false }],
    ],
  },
};
