import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { checkModelFields } from '../../wire/check-model-fields.ts';
import { ENVELOPE_UPDATE_FIELDS } from '../../wire/envelope-field-rules.ts';
import { parseWorkflowUpdate } from '../../wire/parse-workflow.ts';

/** What a PUT .../envelopes/{id} asks for. */
export type EnvelopeUpdate = { action: 'send' } | { action: 'void'; voidedReason: string } | { action: 'resume' } | { action: 'none' };

/**
 * Envelopes::update bodies this service acts on: `{status:"sent"}` sends a draft,
 * `{status:"voided", voidedReason}` voids. A body without a status (the common `{}` misuse)
 * is a no-op 200, as on DocuSign (docusign-esign-node-client#246). `{workflow:{workflowStatus:
 * "in_progress"}}` resumes a paused workflow (DocuSign's unpauseSignatureWorkflow example).
 */
export function parseEnvelopeUpdate(body: unknown): EnvelopeUpdate {
  if (body === undefined || body === null) return { action: 'none' };
  if (typeof body !== 'object' || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON Envelope object.');
  const root = new WireReader('', body);
  checkModelFields(root, 'Envelope', ENVELOPE_UPDATE_FIELDS);
  const status = root.field('status').optionalString(32)?.toLowerCase();
  const resume = parseWorkflowUpdate(root.field('workflow'));
  if (resume && status !== undefined) root.field('workflow').fail('cannot be resumed in the same call that sets status; make two calls.');
  if (resume) return { action: 'resume' };
  if (status === undefined) return { action: 'none' };
  if (status === 'sent') return { action: 'send' };
  if (status === 'voided') {
    const voidedReason = root.field('voidedReason').optionalString(200);
    if (voidedReason === undefined) throw new EsignError('INVALID_REQUEST_PARAMETER', "Value for 'voidedReason' must be specified when voiding an envelope.");
    return { action: 'void', voidedReason };
  }
  throw new EsignError('ENVELOPE_INVALID_STATUS', `status "${status}" cannot be set through an update; use "sent" or "voided".`);
}
