// kong/plugins/key-auth/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';
import { HEADER_NAME } from '../../declarative/entities/common.ts';

/** key-auth: an API key from a header, the query string or the body. */
export const KEY_AUTH_SCHEMA: PluginSchema = {
  name: 'key-auth',
  priority: 1250,
  consumerScoped: false,
  config: {
    fields: [
      // Where the key may be: header names, query argument names, body fields.
      ['key_names', { type: 'array', required: true, elements: HEADER_NAME, default: ['apikey'] }],
      ['hide_credentials', { type: 'boolean', required: true, default: false }],
      // Consumer id or username used when authentication fails (logical OR between auth plugins).
      ['anonymous', { type: 'string' }],
      ['key_in_header', { type: 'boolean', required: true, default: true }],
      ['key_in_query', { type: 'boolean', required: true, default: true }],
      // The body is then read (bounded) when the key is not in a header or the query.
      ['key_in_body', { type: 'boolean', required: true, default: false }],
      ['run_on_preflight', { type: 'boolean', required: true, default: true }],
      ['realm', { type: 'string' }],
    ],
  },
};
