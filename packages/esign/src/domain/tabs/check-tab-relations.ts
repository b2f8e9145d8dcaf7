import { EsignError } from '../../errors.ts';
import { checkFormulas } from './formula/check-formulas.ts';
import type { Tab } from './tab.ts';

/**
 * Our bound on one recipient's tabs, counting every type and every placed copy of an anchor
 * tab: the signing page, Finish and completion do work per tab.
 */
export const MAX_TABS_PER_RECIPIENT = 200;

/** The label other tabs know a tab by: tabLabel, or a radio group's groupName. */
export function labelOf(tab: Tab): string | undefined {
  return tab.type === 'radioGroup' ? tab.groupName : tab.tabLabel;
}

/**
 * What tabs say about each other, checked together: there are at most
 * {@link MAX_TABS_PER_RECIPIENT} of them (createTabs adds to those a recipient has); a conditional tab's parent must be a tab
 * of the same set that has a value (and not the tab itself); formulas may read only labelled
 * tabs of the set and not each other in a cycle (INVALID_FORMULA).
 */
export function checkTabRelations(tabs: readonly Tab[], where: string): void {
  if (tabs.length > MAX_TABS_PER_RECIPIENT) throw new EsignError('INVALID_REQUEST_BODY', `${where}: it would hold ${tabs.length} tabs; a recipient holds at most ${MAX_TABS_PER_RECIPIENT}.`);
  const labels = new Set(tabs.map(labelOf).filter((l): l is string => l !== undefined));
  tabs.forEach((tab, i) => {
    if (!tab.conditional) return;
    const { parentLabel } = tab.conditional;
    if (!labels.has(parentLabel)) {
      throw new EsignError('INVALID_REQUEST_BODY', `${where}: tab ${i + 1} (${tab.type}${labelOf(tab) ? ` "${labelOf(tab)}"` : ''}) has conditionalParentLabel "${parentLabel}", which no tab of this recipient is labelled.`);
    }
    if (parentLabel === labelOf(tab)) throw new EsignError('INVALID_REQUEST_BODY', `${where}: tab "${parentLabel}" is its own conditional parent.`);
  });
  const formulas = tabs.flatMap((t) => (t.type === 'formula' ? [t] : []));
  if (formulas.length === 0) return;
  const unlabelled = formulas.find((f) => f.tabLabel === undefined);
  if (unlabelled) throw new EsignError('INVALID_FORMULA', `${where}: a formula tab needs a tabLabel (formula "${unlabelled.formulaText}").`);
  const known = new Set(tabs.filter((t) => t.type !== 'formula').map(labelOf).filter((l): l is string => l !== undefined));
  checkFormulas(formulas.map((f) => ({ tabLabel: f.tabLabel!, formula: f.formula })), known);
}
