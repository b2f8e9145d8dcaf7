import type { Envelope } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps, SigningTokenRecord } from './ports.ts';
import { newSigningLink } from './signing-links.ts';
import { resumeWorkflow } from './resume-workflow.ts';
import { activeHold } from './workflow.ts';
import { unlockAccessCode } from '../signing/access-code.ts';
import { unlockPasscode } from '../signing/passcode.ts';
import { updateEnvelope } from './update-envelope.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import { EsignError } from '../../errors.ts';
import { isInProcess, pendingSigners } from '../notification/notification-schedule.ts';
import { withEmail, type EnvelopeEmailUpdate } from './update-envelope-email.ts';

/**
 * The pure part of Envelopes::update with resend_envelope=true ("sends the specified envelope
 * again", SDK UpdateOptions): every signer whose turn it is and who has not signed gets the
 * signing mail again, with a fresh link. Embedded signers get no mail (as when first sent).
 *
 * An envelope whose workflow holds routing (paused, scheduled) has nobody whose turn it is:
 * resending it sends it on, the hold ends now (resume-workflow.ts). DocuSign's
 * unpauseSignatureWorkflow example relies on this: the SDK drops its `envelopeDefinition`
 * option, so what reaches the server is only ?resend_envelope=true (docs/esign-workflow.md).
 */
export function resendPending(deps: Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>, envelope: Envelope, now: Date): EnvelopeChange {
  if (!isInProcess(envelope)) throw new EsignError('ENVELOPE_INVALID_STATUS', `Only an envelope in process (sent or delivered) can be resent; this one is ${envelope.status}.`);
  const resumed = activeHold(envelope.workflow) ? resumeWorkflow(deps, envelope, now, 'api') : undefined;
  if (resumed) return resumed;
  // The sender's resend also lets a signer locked out by wrong access codes or passcodes try again.
  const pendingIds = new Set(pendingSigners(envelope).map((r) => r.recipientId));
  const next: Envelope = { ...envelope, recipients: envelope.recipients.map((r) => (pendingIds.has(r.recipientId) ? unlockPasscode(unlockAccessCode(r)) : r)), version: envelope.version + 1 };
  const signingTokens: SigningTokenRecord[] = [];
  const audit: AuditEvent[] = [];
  const mails = pendingSigners(envelope).map((r) => {
    const link = newSigningLink(deps, envelope.envelopeId, r.recipientId, now);
    signingTokens.push(link.record);
    audit.push({ envelopeId: envelope.envelopeId, at: now, action: 'Sent', envelopeStatus: envelope.status, source: 'api', name: r.name, email: r.email, recipientId: r.recipientId, message: `Resent to ${r.name} <${r.email}>.` });
    return deps.notifier.compose({ kind: 'envelope-sent', recipientId: r.recipientId, signingToken: link.token }, next);
  });
  return { envelope: next, signingTokens, mails, reach: { recipients: mails.length, at: now }, audit };
}

/**
 * Envelopes::update ?resend_envelope=true, with the same call's new emailSubject/emailBlurb
 * (if any) in the same change: the corrected mail goes out, or (a draft, a finished envelope)
 * nothing changes at all — never a new subject answered with a 400.
 */
export function resendEnvelope(deps: EnvelopeDeps, accountId: string, envelopeId: string, email: EnvelopeEmailUpdate = {}): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => resendPending(deps, { ...withEmail(current, email), version: current.version }, deps.clock()));
}
