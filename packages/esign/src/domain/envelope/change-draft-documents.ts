import { EsignError } from '../../errors.ts';
import type { Envelope } from './envelope.ts';
import { assertEnvelopeSize } from './envelope-limits.ts';
import { envelopeWrite } from './envelope-write.ts';
import { getEnvelope } from './get-envelope.ts';
import type { EnvelopeDeps } from './ports.ts';
import { replaceDocuments, type DocumentsChange } from './replace-documents.ts';

// A concurrent change makes the store refuse ours; we read again and retry a few times.
const MAX_ATTEMPTS = 3;

/**
 * EnvelopesApi.updateDocuments / updateDocument / deleteDocuments on a draft: documents added,
 * replaced or removed, converted and checked as a create converts them, and every tab placed
 * again on the new set (replace-documents.ts). Only a draft (status created) changes: once
 * sent, the recipients have been told what they sign, so DocuSign's ENVELOPE_INVALID_STATUS.
 * The documents, their PDFs and the tabs are written in one transaction, only over the version
 * read (conversion happens outside it; a concurrent change makes us start again).
 */
export async function changeDraftDocuments(deps: EnvelopeDeps, accountId: string, envelopeId: string, change: DocumentsChange): Promise<Envelope> {
  for (let attempt = 1; ; attempt++) {
    const current = await getEnvelope(deps, accountId, envelopeId);
    if (current.status !== 'created') throw new EsignError('ENVELOPE_INVALID_STATUS', `The envelope is ${current.status}: documents can be added, replaced or deleted only while it is a draft (created).`);
    if (current.deletedAt) throw new EsignError('ENVELOPE_INVALID_STATUS', 'The envelope is in the recycle bin: restore it first.');
    const count = current.documents.filter((d) => !change.remove.includes(d.documentId)).length + change.upsert.filter((d) => !current.documents.some((x) => x.documentId === d.documentId)).length;
    assertEnvelopeSize({ documents: count }, 'An envelope');
    const content = await replaceDocuments(deps, { accountId, documents: current.documents, holders: current.recipients, what: 'the envelope' }, (id) => deps.store.documentPdf(accountId, envelopeId, id), change);
    const next: Envelope = { ...current, documents: content.documents, recipients: current.recipients.map((r, i) => ({ ...r, tabs: content.tabs[i] ?? [] })), version: current.version + 1 };
    if (await deps.store.update(envelopeWrite(current, { envelope: next, signingTokens: [], mails: [], content: { pdfs: content.pdfs } }))) return next;
    if (attempt >= MAX_ATTEMPTS) throw new EsignError('UNSPECIFIED_ERROR', 'The envelope kept changing under this request.');
  }
}
