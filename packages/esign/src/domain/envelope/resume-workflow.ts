import { EsignError } from '../../errors.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps, Random } from './ports.ts';
import { routeOn } from './routing.ts';
import { updateEnvelope } from './update-envelope.ts';
import { activeHold, endActiveHold } from './workflow.ts';

/**
 * Ends the hold routing waits on (workflow.ts) and moves routing on at `now`: the held routing
 * order is reached, with its mails and signing links, until routing stops again (the next
 * pause) or nobody is left (the envelope becomes `signed`, as after the last signer). A
 * scheduled envelope is really sent now: its sentAt, which expiry counts from, is now.
 * Undefined when nothing is held (already resumed: idempotent, so two schedulers or a
 * scheduler and the sender's unpause cannot reach anyone twice).
 */
export function resumeWorkflow(deps: Pick<EnvelopeDeps, 'hashSecret' | 'notifier'> & { readonly random: Pick<Random, 'secretToken'> }, envelope: Envelope, now: Date, source: AuditEvent['source']): EnvelopeChange | undefined {
  const hold = activeHold(envelope.workflow);
  if (!hold || !envelope.workflow || (envelope.status !== 'sent' && envelope.status !== 'delivered')) return undefined;
  // A conditional step held because no condition named a placeholder: it goes on only once the
  // sender has named them (updateRecipients), never to a signer without an address.
  const placeholders = new Set(hold.kind === 'step' ? (hold.step.conditionalRecipients ?? []).map((r) => r.recipientId) : []);
  const unnamed = envelope.recipients.filter((r) => placeholders.has(r.recipientId) && r.email === '').map((r) => r.recipientId);
  if (hold.kind === 'step' && unnamed.length > 0) {
    throw new EsignError('ENVELOPE_INVALID_STATUS', `No condition named recipient ${unnamed.join(', ')} of routing order ${hold.step.routingOrder}: give them a name and e-mail (updateRecipients) before resuming.`);
  }
  const resumed: Envelope = { ...envelope, workflow: endActiveHold(envelope.workflow, now), ...(hold.kind === 'scheduled' ? { sentAt: now } : {}) };
  const routed = routeOn(deps, resumed, now, source);
  const next = { ...routed.envelope, version: envelope.version + 1 };
  const what = hold.kind === 'scheduled' ? 'Scheduled sending' : `The pause before routing order ${hold.step.routingOrder}`;
  const by = source === 'api' ? 'the sender resumed it' : 'its time came';
  const audit: AuditEvent[] = [{ envelopeId: envelope.envelopeId, at: now, action: 'Routing Resumed', envelopeStatus: next.status, source, message: `${what} ended: ${by}.` }, ...routed.audit];
  return { envelope: next, signingTokens: routed.signingTokens, mails: routed.mails, audit };
}

/**
 * The sender's unpause (Envelopes::update with workflow.workflowStatus "in_progress"): ends
 * the hold now, whether or not it would end on its own. An envelope that is not paused is
 * refused, so a client that believes it is paused hears otherwise.
 */
export function unpauseEnvelope(deps: EnvelopeDeps, accountId: string, envelopeId: string): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => {
    const change = resumeWorkflow(deps, current, deps.clock(), 'api');
    if (!change) throw new EsignError('ENVELOPE_INVALID_STATUS', `The envelope's workflow is not paused (envelope status ${current.status}); there is nothing to resume.`);
    return change;
  });
}
