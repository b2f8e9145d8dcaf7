// kong/plugins/redirect/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

// Kong's typedefs.url (socket.url parse): a host, then a scheme, is required.
export function validateUrl(value: string): string | undefined {
  const m = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/([^/?#]*))?/.exec(value);
  if (m?.[2] === undefined || m[2] === '') return 'missing host in url';
  if (m[1] === undefined) return 'missing scheme in url';
  return undefined;
}

/** redirect: answers every request with a redirect to `location`. */
export const REDIRECT_SCHEMA: PluginSchema = {
  name: 'redirect',
  priority: 779,
  consumerScoped: true,
  config: {
    fields: [
      ['status_code', { type: 'integer', required: true, default: 301, between: [100, 599] }],
      ['location', { type: 'string', required: true, custom: validateUrl }],
      ['keep_incoming_path', { type: 'boolean', default: false }],
    ],
  },
};
