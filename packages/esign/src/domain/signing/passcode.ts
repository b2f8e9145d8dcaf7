import { EsignError } from '../../errors.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import type { EnvelopeChange } from '../envelope/ports.ts';
import type { AuditActor, AuditEvent } from './audit-event.ts';

/**
 * One-time passcodes (DocuSign's SMS authentication, phone authentication and e-mail passcode
 * identity checks: Signer.smsAuthentication, phoneAuthentication, identityVerification, with
 * idCheckConfigurationName "SMS Auth $" / "Phone Auth $"; docusign-esign src/model/Recipient*
 * Authentication.js). The signing page shows nothing until the signer types a code sent to a
 * number the sender gave (or to their e-mail): random, short-lived, stored only as a hash,
 * good once; wrong codes are counted and lock the signer out until the sender resends
 * (docs/esign-signing.md, "One-time passcodes").
 */
export type PasscodeMethod = 'sms' | 'phone' | 'email';

/** How one code reaches the signer: a text message, a voice call, or an e-mail. */
export type PasscodeChannel = 'sms' | 'voice' | 'email';

/**
 * How the sender asked for the check, kept so the REST API answers it in the same DocuSign shape
 * (wire/to-wire-recipient-authentication.ts): `idCheck` is idCheckConfigurationName ("SMS Auth $",
 * "Phone Auth $") with smsAuthentication or phoneAuthentication's senderProvidedNumbers;
 * `identityVerification` is a workflow by id (domain/signing/identity-workflows.ts), with its
 * phone_number_list as given (country code and number apart; none for the e-mail passcode).
 */
export type PasscodeAskedAs =
  | { readonly kind: 'idCheck' }
  | { readonly kind: 'identityVerification'; readonly workflowId: string; readonly phoneNumbers: readonly { readonly countryCode: string; readonly number: string }[] };

export type RecipientPasscode = {
  readonly method: PasscodeMethod;
  /** Phone numbers the sender gave (`+` and digits), or the recipient's e-mail for `email`. */
  readonly destinations: readonly string[];
  readonly askedAs: PasscodeAskedAs;
  /** Wrong codes typed since the last right one (or since the sender last resent). */
  readonly failures: number;
  /** Codes sent since then: bounded, so the page cannot be used to flood a phone. */
  readonly sends: number;
  readonly lockedAt?: Date;
  /** The code last sent, as a slow salted hash, and when it stops working; gone once used. */
  readonly pending?: { readonly hash: string; readonly expiresAt: Date };
};

/** What the sender asked for, before it is stored (wire/parse-recipient-authentication.ts). */
export type PasscodeRequest = { readonly method: PasscodeMethod; readonly destinations: readonly string[]; readonly askedAs: PasscodeAskedAs };

/** The check a new recipient starts with: nothing sent, nothing typed. */
export function newPasscode(request: PasscodeRequest): RecipientPasscode {
  return { method: request.method, destinations: request.destinations, askedAs: request.askedAs, failures: 0, sends: 0 };
}

/** Wrong codes before the signer is locked out (the same as for access codes). */
export const MAX_PASSCODE_FAILURES = 5;
/** Codes one signer may have sent before the sender resends. */
export const MAX_PASSCODE_SENDS = 5;
/** How long a code works. */
export const PASSCODE_TTL_MS = 10 * 60_000;
export const PASSCODE_DIGITS = 6;

/** The channels each method may use: phone authentication offers a call or a text, as DocuSign's does. */
export function passcodeChannels(method: PasscodeMethod): readonly PasscodeChannel[] {
  return method === 'sms' ? ['sms'] : method === 'phone' ? ['voice', 'sms'] : ['email'];
}

export function needsPasscode(recipient: Recipient): boolean {
  return recipient.passcode !== undefined;
}

export function passcodeLocked(recipient: Recipient): boolean {
  return recipient.passcode?.lockedAt !== undefined;
}

/** Whether a code sent earlier still works at `now`. */
export function passcodePending(recipient: Recipient, now: Date): boolean {
  const pending = recipient.passcode?.pending;
  return pending !== undefined && pending.expiresAt.getTime() > now.getTime();
}

/** A destination shown on the page and in the audit trail: only its last two digits (or the e-mail's domain). */
export function maskDestination(destination: string): string {
  const at = destination.lastIndexOf('@');
  if (at > 0) return `${destination[0] ?? ''}•••${destination.slice(at)}`;
  return `••• ••${destination.slice(-2)}`;
}

const CHANNEL_WORDS: Record<PasscodeChannel, string> = { sms: 'by text message', voice: 'by a voice call', email: 'by e-mail' };

function recipientOf(envelope: Envelope, recipientId: string): Recipient & { passcode: RecipientPasscode } {
  const recipient = envelope.recipients.find((r) => r.recipientId === recipientId);
  if (!recipient?.passcode) throw new EsignError('INVALID_REQUEST_PARAMETER', 'This recipient has no one-time passcode check.');
  if (recipient.passcode.lockedAt) throw new EsignError('RECIPIENT_AUTHENTICATION_LOCKED', 'Too many wrong passcodes: ask the sender to send the envelope again.');
  return recipient as Recipient & { passcode: RecipientPasscode };
}

function withPasscode(envelope: Envelope, recipientId: string, passcode: RecipientPasscode): Envelope {
  return { ...envelope, recipients: envelope.recipients.map((r) => (r.recipientId === recipientId ? { ...r, passcode } : r)), version: envelope.version + 1 };
}

/**
 * A new code, already hashed by the caller, sent to `destinations[index]` on `channel`: it
 * replaces any earlier one (only the last code works). Refused once MAX_PASSCODE_SENDS codes
 * went out, or for a destination or channel the sender did not give.
 */
export function passcodeSent(envelope: Envelope, recipientId: string, send: { index: number; channel: PasscodeChannel; hash: string }, now: Date, actor: AuditActor): EnvelopeChange {
  const recipient = recipientOf(envelope, recipientId);
  const code = recipient.passcode;
  const destination = code.destinations[send.index];
  if (destination === undefined || !passcodeChannels(code.method).includes(send.channel)) throw new EsignError('INVALID_REQUEST_PARAMETER', 'That is not a way the sender allowed for the passcode.');
  if (code.sends >= MAX_PASSCODE_SENDS) throw new EsignError('RECIPIENT_AUTHENTICATION_LOCKED', `${MAX_PASSCODE_SENDS} passcodes were sent already: ask the sender to send the envelope again.`);
  const next: RecipientPasscode = { ...code, sends: code.sends + 1, pending: { hash: send.hash, expiresAt: new Date(now.getTime() + PASSCODE_TTL_MS) } };
  const audit: AuditEvent = {
    envelopeId: envelope.envelopeId, at: now, action: 'Passcode Sent', envelopeStatus: envelope.status, source: 'web',
    name: recipient.name, email: recipient.email, recipientId, ...actor,
    message: `A one-time passcode for ${recipient.name} was sent ${CHANNEL_WORDS[send.channel]} to ${maskDestination(destination)}.`,
  };
  return { envelope: withPasscode(envelope, recipientId, next), signingTokens: [], mails: [], audit: [audit] };
}

/**
 * One typed code, judged (`right`) by the caller against the pending hash while it was still
 * valid: a wrong one is counted (and locks at the limit); a right one is used up, so it never
 * works twice. Both are audited.
 */
export function passcodeAttempt(envelope: Envelope, recipientId: string, right: boolean, now: Date, actor: AuditActor): EnvelopeChange {
  const recipient = recipientOf(envelope, recipientId);
  const code = recipient.passcode;
  const failures = right ? 0 : code.failures + 1;
  const locked = failures >= MAX_PASSCODE_FAILURES;
  const { pending: _pending, ...rest } = code;
  // A right code is spent; at the lockout the last code dies with it.
  const next: RecipientPasscode = right ? { ...rest, failures, sends: 0 } : locked ? { ...rest, failures, lockedAt: now } : { ...code, failures };
  const message = right
    ? `${recipient.name} entered the right one-time passcode.`
    : locked ? `${recipient.name} entered a wrong one-time passcode ${failures} times and is locked out.` : `${recipient.name} entered a wrong one-time passcode (${failures} of ${MAX_PASSCODE_FAILURES}).`;
  const audit: AuditEvent = { envelopeId: envelope.envelopeId, at: now, action: right ? 'Passcode Passed' : 'Passcode Failed', envelopeStatus: envelope.status, source: 'web', name: recipient.name, email: recipient.email, recipientId, ...actor, message };
  return { envelope: withPasscode(envelope, recipientId, next), signingTokens: [], mails: [], audit: [audit] };
}

/** The sender's resend lets a locked-out signer try again: counts start again, no code is pending. */
export function unlockPasscode(recipient: Recipient): Recipient {
  const code = recipient.passcode;
  if (!code || (!code.lockedAt && code.sends === 0)) return recipient;
  return { ...recipient, passcode: newPasscode(code) };
}
