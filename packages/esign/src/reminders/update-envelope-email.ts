import type { Envelope } from '../domain/envelope/envelope.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { updateEnvelope } from '../domain/envelope/update-envelope.ts';
import { EsignError } from '../errors.ts';
import { WireReader } from '../wire/wire-reader.ts';
import { isInProcess } from '../domain/notification/notification-schedule.ts';

/** A new subject and/or message for the envelope's mails. */
export type EnvelopeEmailUpdate = { readonly emailSubject?: string; readonly emailBlurb?: string };

/** The emailSubject / emailBlurb of an Envelopes::update body (same limits as at create). */
export function parseEnvelopeEmailUpdate(body: unknown): EnvelopeEmailUpdate {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return {};
  const root = new WireReader('', body);
  const emailSubject = root.field('emailSubject').optionalString(100);
  const emailBlurb = root.field('emailBlurb').optionalString(10_000);
  return { ...(emailSubject !== undefined ? { emailSubject } : {}), ...(emailBlurb !== undefined ? { emailBlurb } : {}) };
}

/**
 * Applies a new subject/message to a draft or an envelope in process. The mails already sent
 * keep theirs; every later mail (reminders, warnings, a resend, completion) uses the new one,
 * which is how DocuSign's "resend after an update" flow works. A finished envelope sends no
 * more mail, so changing it is refused rather than silently stored.
 */
export function withEmail(envelope: Envelope, update: EnvelopeEmailUpdate): Envelope {
  if (envelope.status !== 'created' && !isInProcess(envelope)) {
    throw new EsignError('ENVELOPE_INVALID_STATUS', `emailSubject and emailBlurb can change only while the envelope is a draft or in process; this one is ${envelope.status}.`);
  }
  return { ...envelope, ...update, version: envelope.version + 1 };
}

/** Envelopes::update {emailSubject, emailBlurb}. */
export function updateEnvelopeEmail(deps: EnvelopeDeps, accountId: string, envelopeId: string, update: EnvelopeEmailUpdate): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => ({ envelope: withEmail(current, update), signingTokens: [], mails: [] }));
}
