import { EsignError } from '../../errors.ts';
import type { PlacedTab } from '../envelope/placed-tab.ts';
import { labelOf } from '../tabs/check-tab-relations.ts';
import { kindOf } from '../tabs/tab-registry.ts';
import type { TabType } from '../tabs/tab.ts';
import { keptTabValue } from '../tabs/values/number-value.ts';

/**
 * A value templateRoles gives a template tab, found by its type and tabLabel (a radio group's
 * groupName), as DocuSign's setTemplateTabValues example sets a text, a checkbox, a radio group
 * and a list: every template tab of that type and label takes the value.
 */
export type TabPrefill = { readonly type: TabType; readonly label: string; readonly value: string; readonly path: string };

/**
 * The role's placed tabs with the prefills applied. A prefill whose label names no tab of its
 * type is refused (INVALID_REQUEST_BODY naming it),
 * as is a value the tab's kind refuses (INVALID_TAB_VALUE): nothing is dropped in silence.
 */
export function applyPrefills(tabs: readonly PlacedTab[], prefills: readonly TabPrefill[], who: string): PlacedTab[] {
  let out = [...tabs];
  for (const p of prefills) {
    const matching = out.filter((t) => t.tab.type === p.type && labelOf(t.tab) === p.label);
    if (matching.length === 0) throw new EsignError('INVALID_REQUEST_BODY', `${p.path}: ${who} has no ${p.type} tab labelled "${p.label}" to set.`);
    const problem = p.value === '' ? undefined : kindOf(p.type).findValueProblem(matching[0]!.tab, p.value);
    if (problem !== undefined) throw new EsignError('INVALID_TAB_VALUE', `${p.path}: "${p.value}" does not suit the ${p.type} tab "${p.label}": ${problem}`);
    out = out.map((t) => (matching.includes(t) ? { ...t, value: keptTabValue(t.tab, p.value) } : t));
  }
  return out;
}
