// kong/plugins/request-transformer/schema.lua, as data.
import type { Field } from '../../declarative/schema.ts';
import type { PluginSchema } from '../plugin-schema.ts';
import { splitPair, stringArray, validateHeaderPair } from '../transformer-pairs.ts';
import { compileTemplate } from './template.ts';
import { FRAMING_HEADERS } from '../plugin-context.ts';

// Lua patterns: `.` matches a newline too.
const COLON = /^[^:]+:[\s\S]*$/;

/** Kong's templated value check: the template must compile (here: be a form this gateway renders). */
function checkTemplate(value: string): string | undefined {
  const t = compileTemplate(value);
  return typeof t === 'string' ? `value '${value}' is not in supported format, error:${t}` : undefined;
}

// Kong's check_for_value: entries must be `name:value`, the value a template that compiles.
function checkForValue(entry: string): string | undefined {
  const [name, value] = splitPair(entry);
  if (value === undefined) return `key '${name}' has no value`;
  return checkTemplate(value);
}

// Not a Kong check: the headers the proxy frames the request with cannot be edited (a second
// Content-Length or Transfer-Encoding would desynchronise the upstream); `host` is left to Kong's
// own rules (replace sets the upstream Host, the other operations ignore it) except in rename.
function framing(entry: string, both: boolean, hostAllowed: boolean): string | undefined {
  const [name, value = ''] = splitPair(entry);
  for (const n of both ? [name, value] : [name]) {
    const lower = n.toLowerCase();
    if (FRAMING_HEADERS.has(lower) && !(hostAllowed && lower === 'host')) return `'${n}' is a header the gateway sets itself; it cannot be transformed`;
  }
  return undefined;
}

// Header entries: Kong checks the names; the values here are also checked as templates.
function headerValue(both: boolean, hostAllowed = true) {
  const names = validateHeaderPair(both);
  return (entry: string): string | undefined => {
    const err = names(entry) ?? framing(entry, both, hostAllowed);
    if (err !== undefined || both) return err;
    const value = splitPair(entry)[1];
    return value === undefined ? undefined : checkTemplate(value);
  };
}

const colonStrings = stringArray({ type: 'string', custom: checkForValue });
const record = (fields: readonly (readonly [string, Field])[]): Field => ({ type: 'record', required: true, record: { fields }, default: {} });

/** request-transformer: edits the request before it is proxied. */
export const REQUEST_TRANSFORMER_SCHEMA: PluginSchema = {
  name: 'request-transformer',
  priority: 801,
  consumerScoped: true,
  config: {
    fields: [
      // typedefs.http_method: upper-case letters.
      ['http_method', { type: 'string', match: /^[A-Z]+$/ }],
      ['remove', record([['body', stringArray()], ['headers', stringArray({ type: 'string', custom: (e: string) => validateHeaderPair(false)(e) ?? framing(e, false, true) })], ['querystring', stringArray()]])],
      ['rename', record([['body', colonStrings], ['headers', stringArray({ type: 'string', match: COLON, custom: headerValue(true, false) })], ['querystring', colonStrings]])],
      ['replace', record([
        ['body', colonStrings], ['headers', stringArray({ type: 'string', match: COLON, custom: headerValue(false) })], ['querystring', colonStrings],
        ['uri', { type: 'string', custom: checkTemplate }],
      ])],
      ['add', record([['body', colonStrings], ['headers', stringArray({ type: 'string', match: COLON, custom: headerValue(false) })], ['querystring', colonStrings]])],
      ['append', record([['body', colonStrings], ['headers', stringArray({ type: 'string', match: COLON, custom: headerValue(false) })], ['querystring', colonStrings]])],
    ],
  },
};
