import { EsignError } from '../../errors.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import type { EnvelopeChange } from '../envelope/ports.ts';
import type { AuditActor, AuditEvent } from './audit-event.ts';

/**
 * A signer's access code (DocuSign's Signer.accessCode): the sender gives the signer a code out
 * of band, and the signing page shows nothing of the documents until it is typed. Stored only
 * as a password hash; wrong codes are counted, and after MAX_ACCESS_CODE_FAILURES the signer is
 * locked out until the sender resends the envelope (docs/esign-signing.md).
 */
export type RecipientAccessCode = {
  /** security/password-hash.ts format; never the code. */
  readonly hash: string;
  /** Wrong codes typed since the last right one (or since the sender last resent). */
  readonly failures: number;
  readonly lockedAt?: Date;
};

/** Wrong codes before the signer is locked out. */
export const MAX_ACCESS_CODE_FAILURES = 5;

/** Whether the recipient must type an access code before seeing the documents. */
export function needsAccessCode(recipient: Recipient): boolean {
  return recipient.accessCode !== undefined;
}

/** Whether too many wrong codes have locked the recipient out. */
export function accessCodeLocked(recipient: Recipient): boolean {
  return recipient.accessCode?.lockedAt !== undefined;
}

/**
 * One typed code, judged (`right`) by the caller against the hash: a wrong one is counted (and
 * locks at the limit), a right one clears the count. Both are audited. Refuses a locked
 * recipient: a right code typed after the lockout does not unlock it.
 */
export function accessCodeAttempt(envelope: Envelope, recipientId: string, right: boolean, now: Date, actor: AuditActor): EnvelopeChange {
  const recipient = envelope.recipients.find((r) => r.recipientId === recipientId);
  const code = recipient?.accessCode;
  if (!recipient || !code) throw new EsignError('INVALID_REQUEST_PARAMETER', 'This recipient has no access code.');
  if (code.lockedAt) throw new EsignError('RECIPIENT_AUTHENTICATION_LOCKED', 'Too many wrong access codes: ask the sender to send the envelope again.');
  const failures = right ? 0 : code.failures + 1;
  const locked = failures >= MAX_ACCESS_CODE_FAILURES;
  const next: Recipient = { ...recipient, accessCode: { hash: code.hash, failures, ...(locked ? { lockedAt: now } : {}) } };
  const who = { name: recipient.name, email: recipient.email, recipientId };
  const message = right
    ? `${recipient.name} entered the right access code.`
    : locked ? `${recipient.name} entered a wrong access code ${failures} times and is locked out.` : `${recipient.name} entered a wrong access code (${failures} of ${MAX_ACCESS_CODE_FAILURES}).`;
  const audit: AuditEvent = { envelopeId: envelope.envelopeId, at: now, action: right ? 'Access Code Passed' : 'Access Code Failed', envelopeStatus: envelope.status, source: 'web', ...who, ...actor, message };
  return { envelope: { ...envelope, recipients: envelope.recipients.map((r) => (r.recipientId === recipientId ? next : r)), version: envelope.version + 1 }, signingTokens: [], mails: [], audit: [audit] };
}

/** The sender's resend unlocks a locked-out signer: the count starts again. */
export function unlockAccessCode(recipient: Recipient): Recipient {
  return recipient.accessCode?.lockedAt ? { ...recipient, accessCode: { hash: recipient.accessCode.hash, failures: 0 } } : recipient;
}
