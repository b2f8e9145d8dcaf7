import { EsignError } from '../../errors.ts';

/** DocuSign refuses to send an envelope without documents or recipients (ENVELOPE_IS_INCOMPLETE). */
export function assertSendable(envelope: { documents: readonly unknown[]; recipients: readonly unknown[] }): void {
  if (envelope.documents.length === 0) throw new EsignError('ENVELOPE_IS_INCOMPLETE', 'It has no documents.');
  if (envelope.recipients.length === 0) throw new EsignError('ENVELOPE_IS_INCOMPLETE', 'It has no recipients.');
}
