// kong/plugins/tcp-log/schema.lua, as data.
import { HOST, PORT } from '../../declarative/entities/common.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { NO_LUA_FIELD } from '../queue-schema.ts';

/** tcp-log: each request's log entry sent as a JSON line over TCP (or TLS). */
export const TCP_LOG_SCHEMA: PluginSchema = {
  name: 'tcp-log',
  priority: 7,
  consumerScoped: true,
  config: {
    fields: [
      ['host', { ...HOST, required: true }],
      ['port', { ...PORT, required: true }],
      ['timeout', { type: 'number', default: 10000 }],
      ['keepalive', { type: 'number', default: 60000 }],
      ['tls', { type: 'boolean', required: true, default: false }],
      ['tls_sni', { type: 'string' }],
      ['custom_fields_by_lua', NO_LUA_FIELD],
    ],
  },
};
