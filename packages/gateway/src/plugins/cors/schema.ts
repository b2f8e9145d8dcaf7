// kong/plugins/cors/schema.lua, as data.
import type { PluginSchema } from '../plugin-schema.ts';
import { pcreToRegExp } from './cors-origins.ts';

/** Kong's METHODS: the allowed methods' choices and default. */
export const CORS_METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT'];

// Kong's validate_asterisk_or_regex: `*`, or anything that compiles as a regex.
function asteriskOrRegex(value: string): string | undefined {
  if (value === '*' || pcreToRegExp(value) !== undefined) return undefined;
  return `'${value}' is not a valid regex`;
}

/** cors: answers preflight requests and adds the CORS response headers. */
export const CORS_SCHEMA: PluginSchema = {
  name: 'cors',
  priority: 2000,
  consumerScoped: false,
  config: {
    fields: [
      ['origins', { type: 'array', elements: { type: 'string', custom: asteriskOrRegex } }],
      ['headers', { type: 'array', elements: { type: 'string' } }],
      ['exposed_headers', { type: 'array', elements: { type: 'string' } }],
      ['methods', { type: 'array', default: CORS_METHODS, elements: { type: 'string', oneOf: CORS_METHODS } }],
      ['max_age', { type: 'number' }],
      ['credentials', { type: 'boolean', required: true, default: false }],
      ['private_network', { type: 'boolean', required: true, default: false }],
      ['preflight_continue', { type: 'boolean', required: true, default: false }],
      ['allow_origin_absent', { type: 'boolean', required: true, default: true }],
    ],
  },
};
