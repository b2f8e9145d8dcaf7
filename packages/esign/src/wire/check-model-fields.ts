import { EsignError } from '../errors.ts';
import { asksForNothing, caseFoldedIndex } from '../domain/tabs/check-tab-fields.ts';
import type { FieldRule } from '../domain/tabs/tab-field-rules.ts';
import type { WireReader } from './wire-reader.ts';

/** A field rule of a request model: a tab field rule, or a field accepted only with some values (deliveryMethod "email"). */
export type ModelFieldRule = FieldRule | { readonly rule: 'limited'; readonly why: string; readonly allow: readonly string[] };

/**
 * Refuses (INVALID_REQUEST_BODY) an object that asks for something this service does not do,
 * naming every such field at once with why. Names match case-insensitively, as DocuSign's do;
 * fields outside the model are left alone, as DocuSign ignores them.
 */
export function checkModelFields(reader: WireReader, model: string, rules: Readonly<Record<string, ModelFieldRule>>): void {
  const object = reader.object();
  if (object === undefined) return;
  const byName = caseFoldedIndex(rules);
  const problems: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const rule = byName.get(key.toLowerCase());
    if (rule === undefined || asksForNothing(value)) continue;
    if (rule.rule === 'refused') problems.push(`${key} (${rule.why})`);
    if (rule.rule === 'limited' && !rule.allow.includes(String(value).trim().toLowerCase())) problems.push(`${key} "${String(value)}" (${rule.why})`);
  }
  if (problems.length === 0) return;
  const where = reader.path === '' ? model : `${reader.path} (${model})`;
  throw new EsignError('INVALID_REQUEST_BODY', `${where}: not supported: ${problems.join('; ')}.`);
}
