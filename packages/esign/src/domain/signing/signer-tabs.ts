import type { Recipient } from '../envelope/envelope.ts';
import type { TabOnPage } from '../tabs/tab-on-page.ts';

/** A recipient's tabs as the signing page, Finish and completion read them (tab-on-page.ts). */
export function signerTabsOf(recipient: Recipient): TabOnPage[] {
  return recipient.tabs.map((t) => ({
    tabId: t.tabId,
    tab: {
      type: 'signHere', required: !t.optional, locked: false,
      place: { kind: 'absolute', documentId: t.documentId, pageNumber: t.pageNumber, xPosition: t.xPosition, yPosition: t.yPosition },
      ...(t.tabLabel !== undefined ? { tabLabel: t.tabLabel } : {}),
      ...(t.scaleValue !== undefined ? { scaleValue: t.scaleValue } : {}),
    },
    places: [{ documentId: t.documentId, pageNumber: t.pageNumber, xPosition: t.xPosition, yPosition: t.yPosition }],
    value: '',
  }));
}

/** The recipient with its tabs' values replaced by `values` (in signerTabsOf's order). */
export function withTabValues(recipient: Recipient, values: readonly string[]): Recipient {
  // SignHere tabs hold no value until every tab type is stored.
  void values;
  return recipient;
}
