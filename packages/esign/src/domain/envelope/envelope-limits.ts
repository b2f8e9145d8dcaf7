import { EsignError } from '../../errors.ts';

/** Documents an envelope or template may hold, however it is made or changed. */
export const MAX_ENVELOPE_DOCUMENTS = 50;
/** Recipients an envelope (roles a template) may hold, however it is made or changed. */
export const MAX_ENVELOPE_RECIPIENTS = 100;

/**
 * The bounds of a whole envelope or template, checked where one grows by parts (documents
 * added, roles added, templates composed): each part is bounded on its own, and a review grew a
 * template past both bounds by repeated additions, then an envelope from it (200 documents,
 * 400 signers). `what` names the envelope or template in the message.
 */
export function assertEnvelopeSize(counts: { documents?: number; recipients?: number }, what: string): void {
  if (counts.documents !== undefined && counts.documents > MAX_ENVELOPE_DOCUMENTS) {
    throw new EsignError('INVALID_REQUEST_BODY', `${what} may hold at most ${MAX_ENVELOPE_DOCUMENTS} documents; this would make ${counts.documents}.`);
  }
  if (counts.recipients !== undefined && counts.recipients > MAX_ENVELOPE_RECIPIENTS) {
    throw new EsignError('INVALID_REQUEST_BODY', `${what} may hold at most ${MAX_ENVELOPE_RECIPIENTS} recipients; this would make ${counts.recipients}.`);
  }
}
