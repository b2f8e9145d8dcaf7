import type { PlacedTab } from '../domain/envelope/placed-tab.ts';
import { parseTabList } from '../domain/tabs/parse-tabs.ts';
import { findKindByWireKey, kindOf } from '../domain/tabs/tab-registry.ts';
import type { Tab } from '../domain/tabs/tab.ts';
import { EsignError } from '../errors.ts';
import { toWireTab } from './to-wire-tabs.ts';
import { WireReader } from './wire-reader.ts';

// The bodies of createTabs, updateTabs and deleteTabs (EnvelopesApi and TemplatesApi): a Tabs object.

function tabsBody(value: unknown): WireReader {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON Tabs object.');
  return new WireReader('', value);
}

/** Every tab of a Tabs body with its list's name; none at all is DocuSign's "No tabs specified." */
function tabItems(root: WireReader): { key: string; item: WireReader }[] {
  const items = Object.keys(root.object() ?? {}).flatMap((key) => (Array.isArray(root.field(key).value) ? root.field(key).items().map((item) => ({ key, item })) : []));
  if (items.length === 0) throw new EsignError('INVALID_REQUEST_BODY', 'No tabs specified.');
  return items;
}

/** createTabs: new tabs of any type, through the tab registry (relations are checked with the recipient's other tabs). */
export function parseNewTabs(value: unknown, recipientId: string): Tab[] {
  const root = tabsBody(value);
  tabItems(root);
  return parseTabList(root, { recipientId });
}

/**
 * The placed tab a body's tab names: by tabId; a radio group (whose model has no tabId) by one of
 * its radios' tabIds, else by groupName.
 */
function namedTab(key: string, item: WireReader, existing: readonly PlacedTab[], recipientId: string): PlacedTab {
  let found: PlacedTab | undefined;
  let name: string;
  if (key === 'radioGroupTabs') {
    const radioIds = item.field('radios').items().map((r) => r.field('tabId').optionalString(100)).filter((id): id is string => id !== undefined);
    const groupName = item.field('groupName').optionalString(500);
    if (radioIds.length === 0 && groupName === undefined) item.fail('names no radio group: give its groupName or its radios\' tabIds.');
    found = existing.find((t) => t.radios?.some((r) => radioIds.includes(r.tabId))) ?? existing.find((t) => t.tab.type === 'radioGroup' && t.tab.groupName === groupName);
    name = radioIds.length > 0 ? `radio tabId "${radioIds[0]}"` : `radio group "${groupName ?? ''}"`;
  } else {
    const tabId = item.field('tabId').string(100);
    found = existing.find((t) => t.tabId === tabId);
    name = `tabId "${tabId}"`;
  }
  if (!found) throw new EsignError('INVALID_TAB_OPERATION', `${name} is not a tab of recipientId "${recipientId}".`);
  if (kindOf(found.tab.type).wireKey !== key) throw new EsignError('INVALID_TAB_OPERATION', `${name} is a ${found.tab.type} tab, not one of ${key}.`);
  return found;
}

/** deleteTabs: the tabs named, by tabId (a radio group by a radio's tabId or its groupName). */
export function parseTabIds(value: unknown, existing: readonly PlacedTab[], recipientId: string): string[] {
  return tabItems(tabsBody(value)).map(({ key, item }) => namedTab(key, item, existing, recipientId).tabId);
}

const ANCHOR_FIELDS = ['anchorString', 'anchorUnits', 'anchorXOffset', 'anchorYOffset', 'anchorIgnoreIfNotPresent', 'anchorCaseSensitive', 'anchorMatchWholeWord', 'anchorHorizontalAlignment', 'anchorAllowWhiteSpaceInCharacters'];
const SPOT_FIELDS = ['documentId', 'pageNumber', 'xPosition', 'yPosition'];

/**
 * The stored tab's wire fields with the request's over them: DocuSign's updateTabs changes the
 * fields given. A new anchorString places the tab by it; otherwise the tab is placed where it
 * lies (its anchor is not searched again), at the position given or its own. A radio group's
 * `radios`, when given, replace its radios; a value given (`value` or a numerical tab's
 * `numericalValue`) replaces the stored one in both, and a numerical tab given another
 * localePolicy or validationType keeps its number, written the new way.
 */
function merge(stored: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const base = { ...stored };
  const drop = patch.anchorString !== undefined && patch.anchorString !== null ? SPOT_FIELDS.filter((f) => f !== 'documentId' || stored.groupName === undefined) : ANCHOR_FIELDS;
  for (const f of drop) delete base[f];
  // A numerical tab is written with its value twice (value, numericalValue): a new one in either
  // replaces both; a new localePolicy or validationType writes the stored number its new way.
  const has = (name: string) => Object.keys(patch).some((k) => k.toLowerCase() === name.toLowerCase() && patch[k] !== undefined && patch[k] !== null);
  if (has('value') || has('numericalValue')) {
    delete base.value;
    delete base.numericalValue;
  } else if ((has('localePolicy') || has('validationType')) && base.numericalValue !== undefined) {
    delete base.value;
  }
  if (Array.isArray(base.radios) && patch.radios === undefined) {
    base.radios = (base.radios as Record<string, unknown>[]).map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !ANCHOR_FIELDS.includes(k))));
  }
  return { ...base, ...patch };
}

/**
 * updateTabs: each tab of the body names a tab of the recipient (namedTab), in the list of its type;
 * the result is its stored fields with the body's over them, parsed again through the registry
 * (every field rule and value rule applies, as on create).
 */
export function parseTabPatches(value: unknown, existing: readonly PlacedTab[], recipient: { readonly recipientId: string; readonly recipientIdGuid?: string }): { tabId: string; tab: Tab }[] {
  return tabItems(tabsBody(value)).map(({ key, item }) => {
    const kind = findKindByWireKey(key);
    if (!kind) return item.fail('is not a tab list this service implements.');
    const stored = namedTab(key, item, existing, recipient.recipientId);
    const tabId = stored.tabId;
    const merged = merge(toWireTab(stored, recipient), item.object() ?? item.fail('must be a tab object.'));
    const [tab] = parseTabList(new WireReader('', { [key]: [merged] }), { recipientId: recipient.recipientId });
    if (!tab) throw new TypeError('parseTabList returned no tab for one item');
    return { tabId, tab };
  });
}
