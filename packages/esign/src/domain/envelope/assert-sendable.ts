import { EsignError } from '../../errors.ts';
import { assertRequiredValues, type CustomField } from './custom-fields.ts';

/** DocuSign refuses to send an envelope without documents or recipients (ENVELOPE_IS_INCOMPLETE). */
export function assertSendable(envelope: { documents: readonly unknown[]; recipients: readonly unknown[]; customFields?: readonly Pick<CustomField, 'name' | 'value' | 'required'>[] | undefined }): void {
  if (envelope.documents.length === 0) throw new EsignError('ENVELOPE_IS_INCOMPLETE', 'It has no documents.');
  if (envelope.recipients.length === 0) throw new EsignError('ENVELOPE_IS_INCOMPLETE', 'It has no recipients.');
  // A custom field the sender marked required needs its value before anything goes out.
  assertRequiredValues(envelope.customFields ?? []);
}
