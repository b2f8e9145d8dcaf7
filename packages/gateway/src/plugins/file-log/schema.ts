// kong/plugins/file-log/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';
import { NO_LUA_FIELD } from '../queue-schema.ts';

/** file-log: each request's log entry appended to a file as a JSON line. */
export const FILE_LOG_SCHEMA: PluginSchema = {
  name: 'file-log',
  priority: 9,
  consumerScoped: true,
  config: {
    fields: [
      // Kong's pattern: no whitespace at either end, none of * & % \ ` anywhere.
      ['path', { type: 'string', required: true, match: /^[^\s*&%\\`][^*&%\\`]*[^\s*&%\\`]$/, err: 'not a valid filename' }],
      ['reopen', { type: 'boolean', required: true, default: false }],
      ['custom_fields_by_lua', NO_LUA_FIELD],
    ],
  },
};
