import { checkTabFields } from './check-tab-fields.ts';
import { checkTabRelations, MAX_TABS_PER_RECIPIENT } from './check-tab-relations.ts';
import type { TabContext } from './tab-kind.ts';
import { findKindByWireKey, UNSUPPORTED_TAB_LISTS } from './tab-registry.ts';
import type { Tab } from './tab.ts';
import type { WireField } from './wire-field.ts';

/**
 * A recipient's Tabs object (every list of it) → domain tabs, in list order. Refuses
 * (INVALID_REQUEST_BODY) a list this service does not implement or that the Tabs model lacks, a
 * tab with a field its model lacks or this service does not implement, and what the kinds and
 * checkTabRelations refuse: nothing is dropped in silence.
 */
export function parseTabs(tabs: WireField, context: TabContext = {}): Tab[] {
  const parsed = parseTabList(tabs, context);
  checkTabRelations(parsed, tabs.path);
  return parsed;
}

/**
 * parseTabs without checking what the tabs say of each other: for tabs added to a recipient
 * that has some already (createTabs, updateTabs), whose relations are checked with the others.
 */
export function parseTabList(tabs: WireField, context: TabContext = {}): Tab[] {
  const lists = tabs.object() ?? {};
  const parsed: Tab[] = [];
  for (const key of Object.keys(lists)) {
    const list = tabs.field(key);
    const kind = findKindByWireKey(key);
    if (!kind) {
      const why = UNSUPPORTED_TAB_LISTS[key];
      const empty = !list.present || (Array.isArray(list.value) && list.value.length === 0) || (key === 'prefillTabs' && typeof list.value === 'object' && Object.keys(list.value as object).length === 0);
      if (why !== undefined && !empty) list.fail(`is not supported: ${why}.`);
      if (why === undefined) list.fail('is not a tab list of the Tabs model.');
      continue;
    }
    for (const item of list.items()) {
      if (parsed.length >= MAX_TABS_PER_RECIPIENT) tabs.fail(`may hold at most ${MAX_TABS_PER_RECIPIENT} tabs in all.`);
      checkTabFields(item, kind.model, kind.fields);
      parsed.push(kind.parse(item, context));
    }
  }
  return parsed;
}
