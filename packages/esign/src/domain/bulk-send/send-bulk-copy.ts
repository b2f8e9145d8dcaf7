import { EsignError } from '../../errors.ts';
import { storeNewEnvelope } from '../envelope/create-envelope.ts';
import type { Envelope } from '../envelope/envelope.ts';
import type { EnvelopeDeps } from '../envelope/ports.ts';
import type { BulkRowOutcome, ClaimedBulkRow } from './bulk-ports.ts';
import { copyCustomFields, copyProblems, copyRecipients } from './copy-envelope.ts';

/** The draft a batch copies and its stored PDFs, loaded once for many rows. */
export type BulkSource = { readonly envelope: Envelope; readonly pdfs: readonly Uint8Array[] };

/**
 * The envelope id of a batch's row: fixed by batch and row, so the envelopes table's primary key
 * makes each row's envelope exist at most once, whichever instance or retry writes it.
 */
export function bulkEnvelopeId(hashSecret: (s: string) => string, batchId: string, row: number): string {
  const h = hashSecret(`bulk-send:${batchId}:${row}`);
  // Shaped as a version 4 UUID, as every other envelope id is.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${((parseInt(h.slice(16, 17), 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export async function loadBulkSource(deps: Pick<EnvelopeDeps, 'store'>, accountId: string, envelopeId: string): Promise<BulkSource> {
  const envelope = await deps.store.find(accountId, envelopeId);
  if (!envelope) throw new EsignError('ENVELOPE_DOES_NOT_EXIST', `the batch's draft "${envelopeId}" is gone.`);
  const pdfs = await Promise.all(envelope.documents.map(async (d) => (await deps.store.documentPdf(accountId, envelopeId, d.documentId)) ?? new Uint8Array()));
  return { envelope, pdfs };
}

/**
 * One row of a batch: its envelope, made from the draft with the row's recipients, tab values,
 * custom fields, subject and blurb, and sent (its mails in the same write). A row whose envelope
 * already exists (another instance, or this one before a restart, wrote it) is sent already.
 * A row the draft no longer fits fails with why; nothing of it is written.
 */
export async function sendBulkCopy(deps: EnvelopeDeps, source: BulkSource, row: ClaimedBulkRow): Promise<BulkRowOutcome> {
  const envelopeId = bulkEnvelopeId(deps.hashSecret, row.batchId, row.row);
  if (await deps.store.find(row.accountId, envelopeId)) return { status: 'sent', envelopeId };
  const draft = source.envelope;
  const problems = draft.status !== 'created' ? [`the draft is ${draft.status}, no longer a draft.`] : copyProblems(draft, row.copy, row.row);
  if (problems.length > 0) return { status: 'failed', error: problems.join(' ') };
  try {
    await storeNewEnvelope(deps, {
      accountId: row.accountId,
      senderUserId: row.senderUserId,
      envelopeId,
      draft: {
        status: 'sent',
        emailSubject: row.copy.emailSubject ?? draft.emailSubject,
        ...(row.copy.emailBlurb ?? draft.emailBlurb) !== undefined ? { emailBlurb: row.copy.emailBlurb ?? draft.emailBlurb } : {},
        ...(draft.notification ? { notification: draft.notification.settings } : {}),
        customFields: copyCustomFields(draft, row.copy),
        ...(draft.enforceSignerVisibility ? { enforceSignerVisibility: true } : {}),
        ...(draft.envelopeIdStamping ? { envelopeIdStamping: true } : {}),
      },
      documents: draft.documents,
      pdfs: source.pdfs,
      recipients: copyRecipients(draft, row.copy, () => deps.random.uuid()),
      brand: draft.brand,
    });
  } catch (err) {
    // Lost the race for this row's id: the other writer's envelope is the row's.
    if (await deps.store.find(row.accountId, envelopeId)) return { status: 'sent', envelopeId };
    if (err instanceof EsignError) return { status: 'failed', error: err.message };
    throw err;
  }
  return { status: 'sent', envelopeId };
}
