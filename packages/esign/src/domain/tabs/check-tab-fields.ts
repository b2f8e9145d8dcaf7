import type { FieldRule } from './tab-field-rules.ts';
import type { WireField } from './wire-field.ts';

/** absent, null, blank and false ask for nothing, so even a refused field may carry them. */
export function asksForNothing(value: unknown): boolean {
  if (value === undefined || value === null || value === false) return true;
  if (typeof value === 'string') return value.trim() === '' || value.trim().toLowerCase() === 'false';
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object') return Object.values(value).every(asksForNothing);
  return false;
}

/** `<field>Metadata` of a field the model has; SignHere spells tooltip's `toolTipMetadata`. */
function isMetadataOf(key: string, rules: Readonly<Record<string, FieldRule>>): boolean {
  if (!key.endsWith('Metadata')) return false;
  const base = key.slice(0, -'Metadata'.length).toLowerCase();
  return Object.keys(rules).some((field) => field.toLowerCase() === base);
}

// Each table's case-folded index, built once: the checks run for every tab and recipient of every request.
const INDEXES = new WeakMap<object, ReadonlyMap<string, unknown>>();
/** A field table keyed by lower-cased name (DocuSign matches property names in any case). */
export function caseFoldedIndex<R>(rules: Readonly<Record<string, R>>): ReadonlyMap<string, R> {
  let index = INDEXES.get(rules) as ReadonlyMap<string, R> | undefined;
  if (index === undefined) {
    index = new Map(Object.entries(rules).map(([name, rule]) => [name.toLowerCase(), rule]));
    INDEXES.set(rules, index);
  }
  return index;
}

/**
 * Refuses (INVALID_REQUEST_BODY) a tab object that carries a field its model does not have, or
 * one this service does not implement, naming every such field at once: never silently dropped.
 * Names match in any case, as DocuSign's do (its accessCodeAuthentication example sets
 * `XPosition`, `TabLabel`...); the kinds read them through the case-insensitive WireField.
 */
export function checkTabFields(tab: WireField, model: string, rules: Readonly<Record<string, FieldRule>>): void {
  const object = tab.object();
  if (object === undefined) tab.fail(`must be a ${model} object.`);
  const byName = caseFoldedIndex(rules);
  const unknown: string[] = [];
  const unsupported: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const rule = byName.get(key.toLowerCase()) ?? (isMetadataOf(key, rules) ? { rule: 'output' as const } : undefined);
    if (rule === undefined) unknown.push(key);
    else if (rule.rule === 'refused' && !asksForNothing(value)) unsupported.push(`${key} (${rule.why})`);
  }
  const problems = [
    ...(unknown.length > 0 ? [`${unknown.join(', ')} ${unknown.length === 1 ? 'is not a field' : 'are not fields'} of ${model}`] : []),
    ...(unsupported.length > 0 ? [`not supported: ${unsupported.join('; ')}`] : []),
  ];
  if (problems.length > 0) tab.fail(`${problems.join('; ')}.`);
}
