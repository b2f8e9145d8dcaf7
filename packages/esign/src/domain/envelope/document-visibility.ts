import { EsignError } from '../../errors.ts';
import type { Envelope, EnvelopeDocument, Recipient } from './envelope.ts';
import type { PlacedTab } from './placed-tab.ts';

/**
 * Document visibility (DocuSign EnvelopeDefinition.enforceSignerVisibility, a recipient's
 * excludedDocuments; docs/esign-envelopes.md "Document visibility"). Without
 * enforceSignerVisibility every recipient sees every document. With it:
 *
 * - a signer (or in-person signer) sees a document on which they have a tab, always; a document
 *   on which others have tabs and they have none, never; a document without tabs unless it is
 *   in their excludedDocuments;
 * - a carbon copy or certified delivery sees every document but their excludedDocuments.
 *
 * "Sees" is everything: the signing page and its page images and files, the document names in
 * their mails, the download, and the API read as them (`recipient_id`).
 */
export function visibleDocuments(envelope: Envelope, recipient: Recipient): EnvelopeDocument[] {
  if (!envelope.enforceSignerVisibility) return [...envelope.documents];
  const excluded = new Set(recipient.excludedDocuments ?? []);
  const own = documentsWithTabs(recipient.tabs);
  const signs = recipient.type === 'signer' || recipient.type === 'inPersonSigner';
  const anyones = signs ? documentsWithTabs(envelope.recipients.flatMap((r) => r.tabs)) : new Set<string>();
  return envelope.documents.filter((d) => {
    if (own.has(d.documentId)) return true;
    if (excluded.has(d.documentId)) return false;
    return !anyones.has(d.documentId);
  });
}

/** Whether the recipient sees every document: then the envelope's own combined files are theirs. */
export function seesEveryDocument(envelope: Envelope, recipient: Recipient): boolean {
  return visibleDocuments(envelope, recipient).length === envelope.documents.length;
}

function documentsWithTabs(tabs: readonly PlacedTab[]): Set<string> {
  return new Set(tabs.flatMap((t) => (t.radios ?? [t]).map((s) => s.documentId)));
}

/**
 * The sender's choices checked at create, once the tabs are placed: excludedDocuments names
 * documents of the envelope, and never one on which the recipient has a tab (DocuSign's
 * CANNOT_EXCLUDE_DOCUMENT: they must see what they fill in).
 */
export function assertVisibility(documents: readonly Pick<EnvelopeDocument, 'documentId'>[], recipients: readonly Pick<Recipient, 'recipientId' | 'name' | 'tabs' | 'excludedDocuments'>[]): void {
  const ids = new Set(documents.map((d) => d.documentId));
  for (const r of recipients) {
    const own = documentsWithTabs(r.tabs);
    for (const id of r.excludedDocuments ?? []) {
      if (!ids.has(id)) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `recipientId ${r.recipientId}: excludedDocuments names documentId "${id}", which the envelope does not have.`);
      if (own.has(id)) throw new EsignError('CANNOT_EXCLUDE_DOCUMENT', `Recipient ${r.name} (recipientId ${r.recipientId}) cannot be excluded from documentId ${id}: they have tabs on it.`);
    }
  }
}
