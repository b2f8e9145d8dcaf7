import { mergePdfs } from '@signet/pdf';
import { inDownload } from '../envelope/document-supplement.ts';
import { seesEveryDocument, visibleDocuments } from '../envelope/document-visibility.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';

/**
 * The completed documents one recipient may have (domain/envelope/document-visibility.ts):
 * the envelope's sealed combined PDF when they see every document; otherwise their own
 * documents, stamped, merged in envelope order (includeInDownload honoured). That copy carries
 * no seal and no certificate: both name every document, the hidden ones too
 * (docs/esign-envelopes.md "Document visibility").
 */
export async function recipientCopy(envelope: Envelope, recipient: Recipient, sealed: () => Promise<Uint8Array>, signedDocument: (documentId: string) => Promise<Uint8Array | undefined>): Promise<Uint8Array> {
  if (seesEveryDocument(envelope, recipient)) return sealed();
  const pdfs: Uint8Array[] = [];
  for (const d of inDownload(visibleDocuments(envelope, recipient))) {
    const pdf = await signedDocument(d.documentId);
    if (!pdf) throw new TypeError(`no signed PDF for document ${d.documentId} of ${envelope.envelopeId}`);
    pdfs.push(pdf);
  }
  return mergePdfs(pdfs);
}
