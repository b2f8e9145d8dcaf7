import { EsignError } from '../errors.ts';
import { formField } from '../web/form.ts';

// A recipient has at most 200 tabs (parse-tabs.ts) of at most 4000 characters each (read-entry.ts).
const MAX_ENTRIES = 200;
const MAX_VALUE = 4000;

/**
 * The Finish form's `tabValues` (the page's script writes every form tab's value as one JSON
 * object, tabId → value) as a map; absent or empty → no values. Only the shape is checked here:
 * whose tabs they are and whether the values suit them is signerTabValues' to judge.
 */
export function parseTabValues(body: unknown): Map<string, string> {
  const text = formField(body, 'tabValues') ?? '';
  if (text === '') return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new EsignError('INVALID_REQUEST_PARAMETER', 'tabValues is not a JSON object.');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new EsignError('INVALID_REQUEST_PARAMETER', 'tabValues is not a JSON object.');
  const entries = Object.entries(parsed);
  if (entries.length > MAX_ENTRIES) throw new EsignError('INVALID_REQUEST_PARAMETER', `tabValues holds more than ${MAX_ENTRIES} tabs.`);
  const values = new Map<string, string>();
  for (const [tabId, value] of entries) {
    if (typeof value !== 'string') throw new EsignError('INVALID_REQUEST_PARAMETER', `tabValues: the value of tab ${tabId.slice(0, 100)} is not a string.`);
    if (value.length > MAX_VALUE) throw new EsignError('INVALID_TAB_VALUE', `tabValues: the value of tab ${tabId.slice(0, 100)} is longer than ${MAX_VALUE} characters.`);
    values.set(tabId, value);
  }
  return values;
}
