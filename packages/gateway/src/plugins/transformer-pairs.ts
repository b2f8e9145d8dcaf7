// What request-transformer and response-transformer share (kong/plugins/*-transformer): the
// `name:value` config entries, their header validation, and append_value.
import { validateHeaderName } from '../declarative/entities/common.ts';
import type { Field } from '../declarative/schema.ts';

/** Kong's `^([^:]+):*(.-)$`: the name up to the first colon, the value after the colons; '' → undefined. */
export function splitPair(entry: string): [string, string | undefined] {
  const colon = entry.indexOf(':');
  if (colon === -1) return [entry, undefined];
  let i = colon;
  while (entry[i] === ':') i++;
  const value = entry.slice(i);
  return [entry.slice(0, colon), value === '' ? undefined : value];
}

const validName = (name: string): boolean => validateHeaderName(name) === undefined;

/** Kong's validate_headers: the name (and with `both`, the value) must be a valid header name. */
export function validateHeaderPair(both: boolean) {
  return (pair: string): string | undefined => {
    const [name, value = ''] = splitPair(pair);
    if (!validName(name)) return `'${name}' is not a valid header`;
    if (both && !validName(value)) return `'${value}' is not a valid header`;
    // Not a Kong check: a value that would end the header line is refused at load rather than at request time.
    if (/[\r\n\0]/.test(value)) return `'${name}' has a value that is not a valid header value`;
    return undefined;
  };
}

/** Kong's array defaults: `default = {}, required = true`. */
export const stringArray = (elements: Field = { type: 'string' }): Field => ({ type: 'array', default: [], required: true, elements });

/** Kong's append_value: a string becomes a list with the new value, a list grows, anything else is replaced by [value]. */
export function appendValue(current: unknown, value: unknown): unknown[] {
  if (typeof current === 'string') return [current, value];
  if (Array.isArray(current)) return [...(current as unknown[]), value];
  return [value];
}

/** A JSON object (not an array, not null). */
export const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
