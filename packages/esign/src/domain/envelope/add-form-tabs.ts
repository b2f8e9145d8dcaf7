import { EsignError } from '../../errors.ts';
import { claimPdfFields, type ClaimedTab } from '../tabs/claim-pdf-fields.ts';
import { checkTabRelations, MAX_TABS_PER_RECIPIENT } from '../tabs/check-tab-relations.ts';
import { transformPdfFields } from '../tabs/transform-pdf-fields.ts';
import type { Tab } from '../tabs/tab.ts';
import type { DocumentDraft } from './envelope-draft.ts';
import type { RecipientType } from './envelope.ts';
import type { ConvertedDocument } from './ports.ts';

/** Who holds tabs on prepared content: a recipient or a template role; a carbon copy holds none. */
export type ContentRecipient = { readonly recipientId: string; readonly tabs: readonly Tab[]; readonly type?: RecipientType };

/**
 * DocuSign transformPdfFields (docs/esign-tabs.md "PDF form fields"): first each recipient's
 * tabs without a place take the fields their tabLabels name (claimPdfFields), each such tab
 * replaced, where it was listed, by the tabs it became; then every field left becomes a tab of
 * the recipient assignTabsToRecipientId names (DocuSign: "1" when absent), after that
 * recipient's own tabs. A claiming tab no field took is left for placement to refuse or place.
 */
export function addFormTabs(draftDocuments: readonly DocumentDraft[], converted: readonly ConvertedDocument[], recipients: readonly ContentRecipient[]): ContentRecipient[] {
  const claimed: ClaimedTab[] = [];
  const added = new Map<string, Tab[]>();
  draftDocuments.forEach((d, i) => {
    const fields = converted[i]?.formFields;
    if (!d.transformPdfFields || !fields) return;
    const claims = claimPdfFields(fields, d.documentId, recipients);
    claimed.push(...claims.claimed);
    // A form whose every field a tab took needs no assigned recipient (a composite names none).
    if (claims.unclaimed.length === 0 && claims.claimed.length > 0) return;
    const recipientId = d.transformPdfFields.assignTabsToRecipientId;
    const holder = recipients.find((r) => r.recipientId === recipientId);
    if (!holder) throw new EsignError('INVALID_REQUEST_BODY', `documentId ${d.documentId}: assignTabsToRecipientId "${recipientId}" names no recipient of the request; the form's tabs need a signer.`);
    if (holder.type !== undefined && holder.type !== 'signer' && holder.type !== 'inPersonSigner') throw new EsignError('INVALID_REQUEST_BODY', `documentId ${d.documentId}: assignTabsToRecipientId "${recipientId}" is a ${holder.type}, which holds no tabs.`);
    added.set(recipientId, [...(added.get(recipientId) ?? []), ...transformPdfFields(claims.unclaimed, d.documentId)]);
  });
  return recipients.map((r) => {
    const mine = claimed.filter((c) => c.recipientId === r.recipientId);
    const extra = added.get(r.recipientId);
    if (mine.length === 0 && !extra) return r;
    const tabs = [...r.tabs.flatMap((t) => {
      const made = mine.filter((c) => c.claimant === t).map((c) => c.tab);
      return made.length > 0 ? made : [t];
    }), ...(extra ?? [])];
    if (tabs.length > MAX_TABS_PER_RECIPIENT) throw new EsignError('INVALID_REQUEST_BODY', `recipientId ${r.recipientId} would hold ${tabs.length} tabs with the PDF form's fields; a recipient holds at most ${MAX_TABS_PER_RECIPIENT}.`);
    checkTabRelations(tabs, `recipientId ${r.recipientId} (with the PDF form's fields)`);
    return { ...r, tabs };
  });
}
