import type { AnchorSpec } from '../domain/envelope/envelope.ts';
import type { PlacedTab } from '../domain/envelope/placed-tab.ts';
import { signHereTab } from '../domain/tabs/sign-here-tab.ts';
import type { Tab } from '../domain/tabs/tab.ts';

/**
 * A domain Tab as stored JSON: a validationPattern's compiled RegExp is kept as its source
 * (JSON would write it as {}), and compiled again when read. The pattern was checked (bounded
 * backtracking, domain/tabs/safe-pattern.ts) when the tab was parsed.
 */
export function tabToJson(tab: Tab): string {
  return JSON.stringify(tab, (key, value: unknown) => (key === 'regex' ? undefined : value));
}

export function tabFromJson(json: string): Tab {
  const tab = JSON.parse(json) as Tab & { validation?: { pattern: { source: string; regex?: RegExp } } };
  if ('validation' in tab && tab.validation) tab.validation.pattern.regex = new RegExp(tab.validation.pattern.source);
  return tab;
}

/** A template tab as stored before the tab family: a signHere tab's fields and its place. */
type LegacySignHereTab = {
  tabId: string;
  recipientId: string;
  documentId: string;
  pageNumber: number;
  xPosition: number;
  yPosition: number;
  anchor?: AnchorSpec;
  tabLabel?: string;
  name?: string;
  optional: boolean;
  scaleValue?: number;
};

/** A template role's placed tabs as stored in template_recipients.tabs_json. */
export function placedTabsToJson(tabs: readonly PlacedTab[]): string {
  return `[${tabs.map((t) => {
    const { tab, ...rest } = t;
    return `{"placed":${JSON.stringify(rest)},"tab":${tabToJson(tab)}}`;
  }).join(',')}]`;
}

/** Reads tabs_json: the tab family's entries, or the signHere entries stored before it. */
export function placedTabsFromJson(json: string): PlacedTab[] {
  const entries = JSON.parse(json) as unknown[];
  return entries.map((entry) => {
    const e = entry as { placed?: Omit<PlacedTab, 'tab'>; tab?: unknown } & LegacySignHereTab;
    if (e.placed && e.tab !== undefined) return { ...e.placed, tab: tabFromJson(JSON.stringify(e.tab)) };
    return { tabId: e.tabId, recipientId: e.recipientId, documentId: e.documentId, pageNumber: e.pageNumber, xPosition: e.xPosition, yPosition: e.yPosition, tab: signHereTab(e), value: '' };
  });
}
