// kong/plugins/udp-log/schema.lua, as data.
import { HOST, PORT } from '../../declarative/entities/common.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { NO_LUA_FIELD } from '../queue-schema.ts';

/** udp-log: each request's log entry sent as one JSON datagram. */
export const UDP_LOG_SCHEMA: PluginSchema = {
  name: 'udp-log',
  priority: 8,
  consumerScoped: true,
  config: {
    fields: [
      ['host', { ...HOST, required: true }],
      ['port', { ...PORT, required: true }],
      ['timeout', { type: 'number', default: 10000 }],
      ['custom_fields_by_lua', NO_LUA_FIELD],
    ],
  },
};
