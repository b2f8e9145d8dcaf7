import { assertSendable } from './assert-sendable.ts';
import { assertEnvelopeTransition } from './envelope-transitions.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from './ports.ts';
import { mailedCount } from './recipient-kinds.ts';
import { routeOn } from './routing.ts';
import { updateEnvelope } from './update-envelope.ts';
import { pausedAudit } from './workflow-audit.ts';
import { ruleTime } from './workflow.ts';

/**
 * The pure part of sending: the envelope becomes `sent`, the first routing order is reached,
 * each reached signer gets a fresh signing token (stored hashed) and everyone reached a mail.
 * With scheduled sending whose time is still ahead, the envelope is `sent` but nobody is
 * reached yet: the scheduler reaches the first order at that time (resume-workflow.ts).
 */
export function sendDraft(deps: Pick<EnvelopeDeps, 'random' | 'hashSecret' | 'notifier'>, envelope: Envelope, now: Date): EnvelopeChange {
  assertEnvelopeTransition(envelope.status, 'sent');
  assertSendable(envelope);
  const sent: Envelope = { ...envelope, status: 'sent', statusChangedAt: now, version: envelope.version + 1 };
  // Everyone the envelope will mail as routing goes on; embedded recipients get none.
  const reach = { recipients: mailedCount(envelope.recipients), at: now };
  const scheduled = envelope.workflow?.scheduledSending;
  if (scheduled?.status === 'pending') {
    const resumeAt = ruleTime(scheduled.rule, now);
    if (resumeAt.getTime() > now.getTime()) {
      const held: Envelope = { ...sent, workflow: { ...envelope.workflow!, scheduledSending: { ...scheduled, status: 'in_progress', resumeAt } } };
      return { envelope: held, signingTokens: [], mails: [], reach, audit: [pausedAudit(held, now, 'api', `Scheduled: the envelope goes to its first recipients at ${resumeAt.toISOString()}.`)] };
    }
  }
  // A schedule whose time has already come is simply sent now.
  const started: Envelope = scheduled?.status === 'pending' ? { ...sent, workflow: { ...envelope.workflow!, scheduledSending: { ...scheduled, status: 'completed', resumeAt: now, completedAt: now } } } : sent;
  // Nobody left to wait for (carbon copies only): routeOn makes it `signed` at once, which the
  // completion worker seals; left `sent`, it would wait forever for a signer it does not have.
  // The audit trail's first lines: one per recipient reached, as DocuSign lists them.
  const routed = routeOn(deps, { ...started, sentAt: now }, now, 'api');
  return { envelope: routed.envelope, signingTokens: routed.signingTokens, mails: routed.mails, reach, audit: routed.audit };
}

/** DocuSign Envelopes::update {status:"sent"}: sends a draft. */
export function sendEnvelope(deps: EnvelopeDeps, accountId: string, envelopeId: string): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => sendDraft(deps, current, deps.clock()));
}
