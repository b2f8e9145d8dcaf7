import { EsignError } from '../../../errors.ts';
import { labelOf } from '../check-tab-relations.ts';
import { kindOf } from '../tab-registry.ts';
import type { Tab } from '../tab.ts';
import { initialTabValue } from './initial-tab-value.ts';

/**
 * The recipient's tab values after the signer's changes (by index into `tabs`), from the values
 * the tabs had. Refuses (DocuSign's INVALID_TAB_OPERATION) a change to a locked tab or to a
 * type a signer does not fill in (signatures, auto-filled, notes, formulas, buttons), or to a
 * radio group whose chosen or current radio is locked: the
 * signing page never offers one, so the request did not come from it. A value sent unchanged is
 * not a change.
 */
export function applySignerValues(tabs: readonly Tab[], current: readonly string[], changes: ReadonlyMap<number, string>): string[] {
  const values = tabs.map((t, i) => current[i] ?? initialTabValue(t));
  for (const [index, value] of changes) {
    const tab = tabs[index];
    if (!tab) throw new EsignError('INVALID_TAB_OPERATION', `There is no tab ${index + 1}.`);
    if (value === values[index]) continue;
    const name = `${tab.type} tab${labelOf(tab) ? ` "${labelOf(tab)}"` : ''}`;
    if (!kindOf(tab.type).takesValue) throw new EsignError('INVALID_TAB_OPERATION', `The ${name} takes no value from the signer.`);
    if (tab.locked) throw new EsignError('INVALID_TAB_OPERATION', `The ${name} is locked.`);
    if (tab.type === 'radioGroup') {
      // Neither the radio chosen nor the one it replaces may be locked: choosing another clears a locked selection.
      for (const touched of [value, values[index]]) {
        if (touched !== '' && tab.radios.find((r) => r.value === touched)?.locked) throw new EsignError('INVALID_TAB_OPERATION', `The radio "${touched}" of ${name} is locked.`);
      }
    }
    values[index] = value;
  }
  return values;
}
