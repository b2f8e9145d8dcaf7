import { EsignError } from '../../errors.ts';

/** Documents an envelope or template may hold, however it is made or changed. */
export const MAX_ENVELOPE_DOCUMENTS = 50;
/** Recipients an envelope (roles a template) may hold, however it is made or changed. */
export const MAX_ENVELOPE_RECIPIENTS = 100;
/**
 * The PDFs of an envelope or template together, however it is made or changed: twice DocuSign's
 * 25 MB per upload packet, as converted PDFs outgrow their sources. Without it a draft grew by
 * one 25 MB document per call to 1.25 GB, which every archive, portfolio, Connect delivery with
 * documents and bulk copy then handled whole.
 */
export const MAX_ENVELOPE_BYTES = 50 * 1024 * 1024;
/**
 * Pages of an envelope's or template's documents together, as each document alone has at most
 * the pdf package's MAX_DOCUMENT_PAGES: every page is read for anchors, drawn on the signing
 * page, stamped and sealed. 50 documents of 2,000 pages each fit in 50 MB.
 */
export const MAX_ENVELOPE_PAGES = 2_000;

/**
 * The bounds of a whole envelope or template, checked where one grows by parts (documents
 * added, roles added, templates composed): each part is bounded on its own, and a review grew a
 * template past both bounds by repeated additions, then an envelope from it (200 documents,
 * 400 signers). `what` names the envelope or template in the message.
 */
export function assertEnvelopeSize(counts: { documents?: number; recipients?: number; bytes?: number; pages?: number }, what: string): void {
  if (counts.documents !== undefined && counts.documents > MAX_ENVELOPE_DOCUMENTS) {
    throw new EsignError('INVALID_REQUEST_BODY', `${what} may hold at most ${MAX_ENVELOPE_DOCUMENTS} documents; this would make ${counts.documents}.`);
  }
  if (counts.recipients !== undefined && counts.recipients > MAX_ENVELOPE_RECIPIENTS) {
    throw new EsignError('INVALID_REQUEST_BODY', `${what} may hold at most ${MAX_ENVELOPE_RECIPIENTS} recipients; this would make ${counts.recipients}.`);
  }
  if (counts.bytes !== undefined && counts.bytes > MAX_ENVELOPE_BYTES) {
    throw new EsignError('INVALID_REQUEST_BODY', `${what}'s documents may weigh at most ${MAX_ENVELOPE_BYTES / 1024 / 1024} MB together as PDF; these would weigh ${(counts.bytes / 1024 / 1024).toFixed(1)} MB.`);
  }
  if (counts.pages !== undefined && counts.pages > MAX_ENVELOPE_PAGES) {
    throw new EsignError('INVALID_REQUEST_BODY', `${what}'s documents may have at most ${MAX_ENVELOPE_PAGES} pages together; these would have ${counts.pages}.`);
  }
}
