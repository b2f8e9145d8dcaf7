import { EsignError } from '../../errors.ts';
import type { EnvelopeStatus, RecipientStatus } from './envelope.ts';

/**
 * DocuSign's envelope lifecycle (DocuSign "Envelope status codes"; docs/esign-signing.md, "Statuses
 * and routing"): created → sent → delivered → (signed) → completed, with declined and voided as
 * side exits. Voiding applies only to envelopes in process: "you cannot void draft or completed
 * envelopes" (DocuSign blog, Common API Tasks: Void an Envelope). `signed` is transient and only
 * leads to `completed`.
 */
export const ENVELOPE_TRANSITIONS: Readonly<Record<EnvelopeStatus, readonly EnvelopeStatus[]>> = {
  created: ['sent'],
  sent: ['delivered', 'signed', 'completed', 'declined', 'voided'],
  delivered: ['signed', 'completed', 'declined', 'voided'],
  signed: ['completed'],
  completed: [],
  declined: [],
  voided: [],
};

/** Recipient lifecycle (DocuSign "Recipient status codes"): a signer is sent, views, then completes or declines. */
export const RECIPIENT_TRANSITIONS: Readonly<Record<RecipientStatus, readonly RecipientStatus[]>> = {
  created: ['sent', 'completed'],
  sent: ['delivered', 'signed', 'completed', 'declined', 'autoresponded'],
  delivered: ['signed', 'completed', 'declined'],
  signed: ['completed'],
  completed: [],
  declined: [],
  autoresponded: ['sent', 'delivered', 'signed', 'completed', 'declined'],
};

export function canTransitionEnvelope(from: EnvelopeStatus, to: EnvelopeStatus): boolean {
  return ENVELOPE_TRANSITIONS[from].includes(to);
}

export function canTransitionRecipient(from: RecipientStatus, to: RecipientStatus): boolean {
  return RECIPIENT_TRANSITIONS[from].includes(to);
}

/** Throws DocuSign's error for a status change the lifecycle does not allow. */
export function assertEnvelopeTransition(from: EnvelopeStatus, to: EnvelopeStatus): void {
  if (canTransitionEnvelope(from, to)) return;
  if (to === 'voided') throw new EsignError('ENVELOPE_CANNOT_VOID_INVALID_STATE', `The envelope is ${from}.`);
  throw new EsignError('ENVELOPE_INVALID_STATUS', `An envelope that is ${from} cannot become ${to}.`);
}

/** Programmer error guard: recipient changes come only from use cases, never from clients. */
export function assertRecipientTransition(from: RecipientStatus, to: RecipientStatus): void {
  if (!canTransitionRecipient(from, to)) throw new TypeError(`recipient status ${from} cannot become ${to}`);
}
