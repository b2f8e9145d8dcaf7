import { checkTabFields } from '../../domain/tabs/check-tab-fields.ts';
import { parseTabList } from '../../domain/tabs/parse-tabs.ts';
import { findKindByWireKey } from '../../domain/tabs/tab-registry.ts';
import type { Tab } from '../../domain/tabs/tab.ts';
import type { TabPrefill } from '../../domain/templates/tab-prefill.ts';
import { WireReader } from '../../wire/wire-reader.ts';

const MAX_VALUE = 4000;

/** Whether a tab says where it goes: an anchor or a position (a documentId or pageNumber alone does not). */
function placed(item: WireReader): boolean {
  const radios = item.field('radios').present ? item.field('radios').items() : [];
  return [item, ...radios].some((x) => x.field('anchorString').present || x.field('xPosition').present || x.field('yPosition').present);
}

/** The value a prefill gives, read as the tab's model carries it. */
function prefillValue(type: Tab['type'], item: WireReader): string {
  switch (type) {
    case 'checkbox':
      return String(item.field('selected').boolean(false));
    case 'radioGroup':
      return item.field('value').optionalString(500) ?? item.field('radios').items().find((r) => r.field('selected').boolean(false))?.field('value').optionalString(500) ?? '';
    case 'list':
      return item.field('value').optionalString(500) ?? item.field('listSelectedValue').optionalString(500) ?? item.field('listItems').items().find((i) => i.field('selected').boolean(false))?.field('value').optionalString(500) ?? '';
    case 'numerical':
      return item.field('value').optionalString(MAX_VALUE) ?? (item.field('numericalValue').optionalNumber() === undefined ? '' : String(item.field('numericalValue').optionalNumber()));
    default:
      return item.field('value').optionalString(MAX_VALUE) ?? '';
  }
}

/**
 * A templateRoles entry's Tabs, as DocuSign reads them (its setTemplateTabValues example): a
 * labelled tab that says nowhere to go sets the value of the role's template tabs of that type
 * and tabLabel (groupName for a radio group); a tab with an anchor or a position is a new tab for
 * the role. A tab with neither a label nor a place names no tab and is ignored: that example
 * sends one (the SDK drops its snake_case keys), and DocuSign accepts it. Fields are checked
 * against the tab's model as on create.
 */
export function parseTemplateRoleTabs(tabs: WireReader): { prefills: TabPrefill[]; tabs: Tab[] } {
  const prefills: TabPrefill[] = [];
  const added: Record<string, unknown[]> = {};
  for (const key of Object.keys(tabs.object() ?? {})) {
    const kind = findKindByWireKey(key);
    if (!kind) {
      // Not a list this service has: parseTabList names the refusal.
      parseTabList(tabs);
      continue;
    }
    for (const item of tabs.field(key).items()) {
      if (placed(item)) {
        (added[key] ??= []).push(item.value);
        continue;
      }
      checkTabFields(item, kind.model, kind.fields);
      const label = item.field(kind.type === 'radioGroup' ? 'groupName' : 'tabLabel').optionalString(500);
      if (label === undefined) continue;
      if (!kind.takesValue) item.fail(`sets no value: a ${kind.type} tab has none. Give it an anchorString or a position to add it.`);
      const value = prefillValue(kind.type, item);
      prefills.push({ type: kind.type, label, value: kind.type === 'checkbox' ? value.toLowerCase() : value, path: item.path });
    }
  }
  const newTabs = Object.keys(added).length === 0 ? [] : parseTabList(new WireReader(tabs.path, added));
  return { prefills, tabs: newTabs };
}
