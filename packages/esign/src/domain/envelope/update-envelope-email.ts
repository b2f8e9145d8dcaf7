import type { Envelope } from './envelope.ts';
import type { EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';
import { EsignError } from '../../errors.ts';
import { isInProcess } from '../notification/notification-schedule.ts';

/** A new subject and/or message for the envelope's mails. */
export type EnvelopeEmailUpdate = { readonly emailSubject?: string; readonly emailBlurb?: string };

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
