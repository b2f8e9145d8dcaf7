import { EsignError } from '../../../errors.ts';
import { labelOf } from '../check-tab-relations.ts';
import { kindOf } from '../tab-registry.ts';
import type { Tab } from '../tab.ts';

/** One tab that stops the signer from finishing, and what to tell them. */
export type TabProblem = { readonly index: number; readonly tabLabel?: string; readonly message: string };

/**
 * The value a conditional parent is compared with: a checkbox is "on" when checked, "off" when
 * not (DocuSign's conditionalParentValue for checkboxes); other tabs compare their value.
 */
function conditionValue(tab: Tab, value: string): string {
  return tab.type === 'checkbox' ? (value === 'true' ? 'on' : 'off') : value;
}

/**
 * Which tabs are shown: a tab without a condition always; a conditional one while a shown tab
 * labelled its parentLabel has its parentValue. Conditions are resolved to a fixed point, so a
 * chain of conditions settles whatever the tabs' order.
 */
export function shownTabs(tabs: readonly Tab[], values: readonly string[]): boolean[] {
  const shown = tabs.map((t) => t.conditional === undefined);
  for (let changed = true; changed;) {
    changed = false;
    tabs.forEach((tab, i) => {
      if (shown[i] || !tab.conditional) return;
      const { parentLabel, parentValue } = tab.conditional;
      const on = tabs.some((p, j) => shown[j] && labelOf(p) === parentLabel && conditionValue(p, values[j] ?? '').toLowerCase() === parentValue.toLowerCase());
      if (on) {
        shown[i] = true;
        changed = true;
      }
    });
  }
  return shown;
}

/**
 * Every reason the recipient cannot finish with these values (formulas already computed): a
 * shown, required tab left blank (an unchecked required checkbox), or a value its kind refuses.
 * Hidden tabs are not judged. The signing page shows these; Finish refuses them again.
 */
export function findTabProblems(tabs: readonly Tab[], values: readonly string[]): TabProblem[] {
  const shown = shownTabs(tabs, values);
  const problems: TabProblem[] = [];
  tabs.forEach((tab, index) => {
    const kind = kindOf(tab.type);
    if (!shown[index] || !kind.takesValue) return;
    const value = (values[index] ?? '').trim();
    const label = labelOf(tab);
    const problem = (message: string) => problems.push({ index, ...(label !== undefined ? { tabLabel: label } : {}), message });
    if (value === '' || (tab.type === 'checkbox' && value.toLowerCase() === 'false')) {
      if (tab.required) problem(tab.type === 'checkbox' ? 'Check this box to continue.' : tab.type === 'radioGroup' || tab.type === 'list' ? 'Make a choice to continue.' : 'This field is required.');
      return;
    }
    const why = kind.findValueProblem(tab, value);
    if (why !== undefined) problem(why);
  });
  return problems;
}

/** Finish's check: refuses (INVALID_TAB_VALUE) values with problems, naming each tab. */
export function assertTabsComplete(tabs: readonly Tab[], values: readonly string[]): void {
  const problems = findTabProblems(tabs, values);
  if (problems.length === 0) return;
  const list = problems.slice(0, 10).map((p) => `tab ${p.index + 1}${p.tabLabel !== undefined ? ` "${p.tabLabel}"` : ''}: ${p.message}`).join('; ');
  throw new EsignError('INVALID_TAB_VALUE', `${list}${problems.length > 10 ? `; and ${problems.length - 10} more` : ''}`);
}
