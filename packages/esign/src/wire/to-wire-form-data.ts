import type { Envelope } from '../domain/envelope/envelope.ts';
import { signsDocuments } from '../domain/envelope/recipient-kinds.ts';
import type { PlacedTab } from '../domain/envelope/placed-tab.ts';
import { labelOf } from '../domain/tabs/check-tab-relations.ts';
import type { TabType } from '../domain/tabs/tab.ts';
import { numericalValueOf } from '../domain/tabs/values/number-value.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';

// Types that hold no value: a signature, an attachment, a button.
const NO_VALUE: ReadonlySet<TabType> = new Set(['signHere', 'initialHere', 'signerAttachment', 'approve', 'decline', 'view']);

const at = (d: Date | undefined) => (d === undefined ? undefined : toDocuSignDateTime(d));

/** Drops undefined fields so JSON carries neither null nor undefined. */
function compact<T extends Record<string, unknown>>(obj: T): T {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as T;
}

/**
 * One tab's FormDataItem: named by its tabLabel (a radio group's groupName; an unlabelled tab by
 * its tabId, as DocuSign names unlabelled tabs by a generated label), its current value; a list
 * also gives the chosen item's text as listSelectedValue, a numerical tab the number its value
 * holds as numericalValue (123000 for `$123,000.00 USD`).
 */
function formDataItem(t: PlacedTab): Record<string, string> {
  const tab = t.tab;
  const item: Record<string, string> = { name: labelOf(tab) ?? t.tabId, value: t.value };
  const numericalValue = tab.type === 'numerical' ? numericalValueOf(tab, t.value) : undefined;
  if (numericalValue !== undefined) item.numericalValue = numericalValue;
  if (tab.type === 'list') {
    const chosen = tab.items.find((i) => i.value === t.value);
    if (chosen) item.listSelectedValue = chosen.text;
  }
  return item;
}

/**
 * GET envelopes/{id}/form_data (the SDK's EnvelopeFormData): every value-holding tab of every
 * signer, in `formData` all together and in `recipientFormData` per recipient with its times.
 */
export function toWireFormData(envelope: Envelope): Record<string, unknown> {
  const signers = envelope.recipients.filter(signsDocuments);
  const items = (tabs: readonly PlacedTab[]) => tabs.filter((t) => !NO_VALUE.has(t.tab.type)).map(formDataItem);
  return compact({
    envelopeId: envelope.envelopeId,
    emailSubject: envelope.emailSubject,
    status: envelope.status,
    sentDateTime: at(envelope.sentAt),
    formData: signers.flatMap((r) => items(r.tabs)),
    recipientFormData: signers.map((r) => compact({
      recipientId: r.recipientId,
      name: r.name,
      email: r.email,
      SentTime: at(r.sentAt),
      DeliveredTime: at(r.deliveredAt),
      SignedTime: at(r.signedAt),
      DeclinedTime: at(r.declinedAt),
      formData: items(r.tabs),
    })),
  });
}
