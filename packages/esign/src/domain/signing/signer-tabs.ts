import type { Recipient } from '../envelope/envelope.ts';
import type { TabOnPage } from '../tabs/tab-on-page.ts';

/**
 * A recipient's tabs as the signing page, Finish and completion read them (tab-on-page.ts): each
 * placed tab (domain/envelope/placed-tab.ts) with its place, a radio group's one place per radio.
 */
export function signerTabsOf(recipient: Recipient): TabOnPage[] {
  return recipient.tabs.map((t) => ({
    tabId: t.tabId,
    tab: t.tab,
    places: t.radios ?? [{ documentId: t.documentId, pageNumber: t.pageNumber, xPosition: t.xPosition, yPosition: t.yPosition }],
    value: t.value,
  }));
}

/**
 * The recipient with its tabs' values replaced by `values` (in signerTabsOf's order). A change
 * carrying it names the recipient in EnvelopeChange.tabsOf, so the store writes the values.
 */
export function withTabValues(recipient: Recipient, values: readonly string[]): Recipient {
  return { ...recipient, tabs: recipient.tabs.map((t, i) => ({ ...t, value: values[i] ?? t.value })) };
}
