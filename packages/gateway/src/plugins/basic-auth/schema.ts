// kong/plugins/basic-auth/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

/** basic-auth: username and password from `Authorization: Basic …` (or Proxy-Authorization). */
export const BASIC_AUTH_SCHEMA: PluginSchema = {
  name: 'basic-auth',
  priority: 1100,
  consumerScoped: false,
  config: {
    fields: [
      // Consumer id or username used when authentication fails (logical OR between auth plugins).
      ['anonymous', { type: 'string' }],
      ['hide_credentials', { type: 'boolean', required: true, default: false }],
      ['realm', { type: 'string', required: true, default: 'service' }],
    ],
  },
};
