// kong/plugins/proxy-cache/schema.lua, as data (strategy `memory`, its only one).
import type { PluginSchema } from '../plugin-schema.ts';
import { DICTIONARY_SIZES } from './cache-dictionaries.ts';

// Kong's custom_entity_check: the named shared dictionary must exist (here: one of the two
// Kong's template sizes for caches, cache-dictionaries.ts).
function checkDictionary(config: Readonly<Record<string, unknown>>): string | undefined {
  const name = (config.memory as { dictionary_name: string }).dictionary_name;
  return config.strategy === 'memory' && !DICTIONARY_SIZES.has(name) ? `missing shared dict '${name}'` : undefined;
}

/** proxy-cache: caches upstream responses in memory. */
export const PROXY_CACHE_SCHEMA: PluginSchema = {
  name: 'proxy-cache',
  priority: 100,
  consumerScoped: true,
  config: {
    fields: [
      ['response_code', { type: 'array', required: true, lenMin: 1, default: [200, 301, 404], elements: { type: 'integer', between: [100, 900] } }],
      ['request_method', { type: 'array', required: true, default: ['GET', 'HEAD'], elements: { type: 'string', oneOf: ['HEAD', 'GET', 'POST', 'PATCH', 'PUT'] } }],
      ['content_type', { type: 'array', required: true, default: ['text/plain', 'application/json'], elements: { type: 'string' } }],
      ['cache_ttl', { type: 'integer', default: 300, custom: (v: number) => (v > 0 ? undefined : 'value must be greater than 0') }],
      ['strategy', { type: 'string', required: true, oneOf: ['memory'] }],
      ['cache_control', { type: 'boolean', required: true, default: false }],
      ['ignore_uri_case', { type: 'boolean', default: false }],
      ['storage_ttl', { type: 'integer' }],
      ['memory', { type: 'record', default: {}, record: { fields: [['dictionary_name', { type: 'string', required: true, default: 'kong_db_cache' }]] } }],
      ['vary_query_params', { type: 'array', elements: { type: 'string' } }],
      ['vary_headers', { type: 'array', elements: { type: 'string' } }],
      ['response_headers', {
        type: 'record',
        default: {},
        record: {
          fields: [
            ['age', { type: 'boolean', default: true }],
            ['X-Cache-Status', { type: 'boolean', default: true }],
            ['X-Cache-Key', { type: 'boolean', default: true }],
          ],
        },
      }],
    ],
  },
  configValidator: checkDictionary,
};
