// kong/plugins/response-transformer/schema.lua, as data.
import type { Field } from '../../declarative/schema.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { stringArray, validateHeaderPair } from '../transformer-pairs.ts';

// Lua patterns: `.` matches a newline too.
const COLON = /^[^:]+:[\s\S]*$/;
const colonStrings = stringArray({ type: 'string', match: COLON });
const jsonTypes = stringArray({ type: 'string', oneOf: ['boolean', 'number', 'string'] });
const record = (fields: readonly (readonly [string, Field])[]): Field => ({ type: 'record', required: true, record: { fields }, default: {} });

/** response-transformer: edits the response headers and JSON body. */
export const RESPONSE_TRANSFORMER_SCHEMA: PluginSchema = {
  name: 'response-transformer',
  priority: 800,
  consumerScoped: true,
  config: {
    fields: [
      ['remove', record([['json', stringArray()], ['headers', stringArray({ type: 'string', custom: validateHeaderPair(false) })]])],
      ['rename', record([['json', colonStrings], ['headers', stringArray({ type: 'string', match: COLON, custom: validateHeaderPair(true) })]])],
      ['replace', record([['json', colonStrings], ['json_types', jsonTypes], ['headers', stringArray({ type: 'string', match: COLON, custom: validateHeaderPair(false) })]])],
      ['add', record([['json', colonStrings], ['json_types', jsonTypes], ['headers', stringArray({ type: 'string', match: COLON, custom: validateHeaderPair(false) })]])],
      ['append', record([['json', colonStrings], ['json_types', jsonTypes], ['headers', stringArray({ type: 'string', match: COLON, custom: validateHeaderPair(false) })]])],
    ],
  },
};
