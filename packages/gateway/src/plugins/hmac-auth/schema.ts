// kong/plugins/hmac-auth/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

/** The HMAC algorithms Kong accepts, in its order. */
export const HMAC_ALGORITHMS = ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512'] as const;

/** hmac-auth: `Authorization: hmac username="…", algorithm="…", headers="…", signature="…"`. */
export const HMAC_AUTH_SCHEMA: PluginSchema = {
  name: 'hmac-auth',
  priority: 1030,
  consumerScoped: false,
  config: {
    fields: [
      ['hide_credentials', { type: 'boolean', required: true, default: false }],
      // Seconds the Date / X-Date header may be off the gateway's clock (Kong: gt = 0).
      ['clock_skew', { type: 'number', default: 300, custom: (v: number) => (v > 0 ? undefined : 'value must be greater than 0') }],
      // Consumer id or username used when authentication fails (logical OR between auth plugins).
      ['anonymous', { type: 'string' }],
      // The Digest header must be the body's SHA-256 (the body is then read whole, bounded).
      ['validate_request_body', { type: 'boolean', required: true, default: false }],
      // Headers the signature must cover.
      ['enforce_headers', { type: 'array', elements: { type: 'string' }, default: [] }],
      ['algorithms', { type: 'array', elements: { type: 'string', oneOf: HMAC_ALGORITHMS }, default: [...HMAC_ALGORITHMS] }],
      ['realm', { type: 'string' }],
    ],
  },
};
