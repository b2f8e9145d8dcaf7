import { EsignError } from '../../errors.ts';
import { assertEnvelopeTransition } from './envelope-transitions.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';
import { isEmbedded } from './recipient-kinds.ts';

/**
 * The pure part of voiding: the envelope becomes `voided` with its reason, and every recipient
 * who was already reached (has a sentAt) is told; later routing orders never hear of it, nor
 * do embedded recipients (recipient-kinds.ts isEmbedded: the sender's application tells them).
 */
export function voidSent(deps: Pick<EnvelopeDeps, 'notifier'>, envelope: Envelope, voidedReason: string, now: Date): EnvelopeChange {
  // DocuSign requires the reason (docusign-esign-node-client#246).
  if (voidedReason.trim() === '') throw new EsignError('INVALID_REQUEST_PARAMETER', "Value for 'voidedReason' must be specified when voiding an envelope.");
  assertEnvelopeTransition(envelope.status, 'voided');
  const voided: Envelope = { ...envelope, status: 'voided', voidedAt: now, voidedReason, statusChangedAt: now, version: envelope.version + 1 };
  const mails = voided.recipients
    .filter((r) => r.sentAt !== undefined && !isEmbedded(r))
    .map((r) => deps.notifier.compose({ kind: 'envelope-voided', recipientId: r.recipientId }, voided));
  const audit = [{ envelopeId: envelope.envelopeId, at: now, action: 'Voided' as const, envelopeStatus: 'voided', source: 'api' as const, message: `The sender voided the envelope: ${voidedReason}` }];
  return { envelope: voided, signingTokens: [], mails, audit };
}

/** DocuSign Envelopes::update {status:"voided", voidedReason}. */
export function voidEnvelope(deps: EnvelopeDeps, accountId: string, envelopeId: string, voidedReason: string): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => voidSent(deps, current, voidedReason, deps.clock()));
}
