// kong/plugins/jwt/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';

/** jwt: a signed token from the query, a cookie or a `Bearer` header, verified with the consumer's jwt_secret. */
export const JWT_SCHEMA: PluginSchema = {
  name: 'jwt',
  priority: 1450,
  consumerScoped: false,
  config: {
    fields: [
      // Where the token may be, tried in this order: query arguments, cookies, headers.
      ['uri_param_names', { type: 'set', elements: { type: 'string' }, default: ['jwt'] }],
      ['cookie_names', { type: 'set', elements: { type: 'string' }, default: [] }],
      // The claim (then the token header field) naming the jwt_secret's key.
      ['key_claim_name', { type: 'string', default: 'iss' }],
      ['secret_is_base64', { type: 'boolean', required: true, default: false }],
      ['claims_to_verify', { type: 'set', elements: { type: 'string', oneOf: ['exp', 'nbf'] } }],
      // Consumer id or username used when authentication fails (logical OR between auth plugins).
      ['anonymous', { type: 'string' }],
      ['run_on_preflight', { type: 'boolean', required: true, default: true }],
      // Seconds; 0 = no limit on how far in the future `exp` may be.
      ['maximum_expiration', { type: 'number', default: 0, between: [0, 31536000] }],
      ['header_names', { type: 'set', elements: { type: 'string' }, default: ['authorization'] }],
      ['realm', { type: 'string' }],
    ],
  },
  entityChecks: [{
    conditional: { if_field: 'config.maximum_expiration', if_match: { gt: 0 }, then_field: 'config.claims_to_verify', then_match: { contains: 'exp' } },
  }],
};
