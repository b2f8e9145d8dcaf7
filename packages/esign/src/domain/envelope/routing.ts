import type { AuditEvent } from '../signing/audit-event.ts';
import { assertEnvelopeTransition, assertRecipientTransition } from './envelope-transitions.ts';
import { actsOnSigningPage } from './recipient-kinds.ts';
import type { Envelope, Recipient } from './envelope.ts';
import type { EnvelopeChange, EnvelopeDeps, Random } from './ports.ts';
import { resolveConditionalRecipients } from './conditional-recipients.ts';
import { notifyReached } from './signing-links.ts';
import { routedAudit } from './workflow-audit.ts';
import { activeHold, endActiveHold, triggerStepBefore } from './workflow.ts';

/** A recipient still to act: a signer (or certified delivery) whose turn came and who has not finished. */
function isPendingSigner(r: Recipient): boolean {
  return actsOnSigningPage(r) && (r.status === 'sent' || r.status === 'delivered');
}

/** Not reached yet: nobody has notified them. */
function isUnreached(r: Recipient): boolean {
  return r.status === 'created';
}

/**
 * The routing order in progress: the lowest order that still has someone to reach or a signer
 * to wait for; undefined when nobody is left (DocuSign's `currentRoutingOrder`).
 */
export function currentRoutingOrder(recipients: readonly Recipient[]): number | undefined {
  const open = recipients.filter((r) => isUnreached(r) || isPendingSigner(r)).map((r) => r.routingOrder);
  return open.length === 0 ? undefined : Math.min(...open);
}

/**
 * Moves routing forward at `now` and returns who was reached. Recipients of the lowest
 * unreached routing order are reached together (same order = parallel, docs/esign-envelopes.md "Lifecycle and routing"):
 * signers become `sent`; carbon copies, who have nothing to do, become `completed`. While no
 * signer is pending (an order of only carbon copies), the next order is reached at once, since
 * nobody would ever finish that order otherwise.
 *
 * The envelope's workflow holds routing back (workflow.ts): nothing moves while a hold is on,
 * and an order with a pending pause_before step is not reached: the step starts instead, and
 * `pausedBefore` names the order it holds. A step with conditional recipients names them and
 * completes at once, unless one stays unnamed.
 *
 * An unreached recipient at or before the order in progress (a correction moved them there) is
 * reached now, as if they had been there from the start; routing never leaves one behind.
 */
export function advanceRouting(envelope: Envelope, now: Date): { envelope: Envelope; reached: Recipient[]; pausedBefore?: number } {
  if (activeHold(envelope.workflow)) return { envelope, reached: [] };
  let recipients = [...envelope.recipients];
  let workflow = envelope.workflow;
  let pausedBefore: number | undefined;
  const reached: Recipient[] = [];
  const reach = (r: Recipient): Recipient => {
    const status = actsOnSigningPage(r) ? 'sent' : 'completed';
    assertRecipientTransition(r.status, status);
    const next: Recipient = { ...r, status, sentAt: now, ...(status === 'completed' ? { completedAt: now } : {}) };
    reached.push(next);
    return next;
  };
  const pending = recipients.filter(isPendingSigner);
  if (pending.length > 0) {
    const inProgress = Math.min(...pending.map((r) => r.routingOrder));
    recipients = recipients.map((r) => (isUnreached(r) && r.routingOrder <= inProgress ? reach(r) : r));
  }
  while (!recipients.some(isPendingSigner)) {
    const unreached = recipients.filter(isUnreached);
    if (unreached.length === 0) break;
    const order = Math.min(...unreached.map((r) => r.routingOrder));
    const held = triggerStepBefore(workflow, order, now);
    if (held) {
      // Conditional recipients: the step names its placeholders from the values left so far and
      // routing goes on; it holds (a pause the sender ends) only when a placeholder stays unnamed.
      const rules = held.steps.find((st) => st.routingOrder === order)?.conditionalRecipients;
      if (rules) {
        const resolved = resolveConditionalRecipients(recipients, rules);
        recipients = resolved.recipients;
        if (resolved.unresolved.length === 0) {
          workflow = endActiveHold(held, now);
          continue;
        }
      }
      workflow = held;
      pausedBefore = order;
      break;
    }
    recipients = recipients.map((r) => (isUnreached(r) && r.routingOrder === order ? reach(r) : r));
  }
  return { envelope: { ...envelope, recipients, ...(workflow ? { workflow } : {}) }, reached, ...(pausedBefore !== undefined ? { pausedBefore } : {}) };
}

/** What routing on did: the envelope after it (version not yet bumped), who it reached, and what that writes. */
export type RoutedOn = Pick<EnvelopeChange, 'mails' | 'signingTokens'> & { readonly envelope: Envelope; readonly reached: readonly Recipient[]; readonly audit: AuditEvent[] };

/**
 * The one way routing moves on after anything that may let it (a send, a Finish, a resume, a
 * correction, a deletion): advanceRouting; then, when nobody is left to reach or wait for and
 * no workflow hold is on, the envelope becomes `signed` (DocuSign's transient state, which
 * the completion worker seals into `completed`); each recipient reached gets their mail (and a
 * signer a fresh link: signing-links.ts) and a `Sent` audit line, and a pause that began gets
 * its `Routing Paused` line. A held envelope is never `signed` here, even with nobody left:
 * the hold is the sender's (or the clock's) to end, and resuming routes on again.
 * `note` ends each `Sent` line (why they were reached now).
 */
export function routeOn(deps: Pick<EnvelopeDeps, 'hashSecret' | 'notifier'> & { readonly random: Pick<Random, 'secretToken'> }, envelope: Envelope, now: Date, source: AuditEvent['source'], note = ''): RoutedOn {
  const { envelope: advanced, reached, pausedBefore } = advanceRouting(envelope, now);
  let next = advanced;
  if (!activeHold(next.workflow) && currentRoutingOrder(next.recipients) === undefined) {
    assertEnvelopeTransition(next.status, 'signed');
    next = { ...next, status: 'signed', statusChangedAt: now };
  }
  const { mails, signingTokens } = notifyReached(deps, next, reached, now);
  const audit: AuditEvent[] = reached.map((r) => ({
    envelopeId: envelope.envelopeId, at: now, action: 'Sent', envelopeStatus: next.status, source, name: r.name, email: r.email, recipientId: r.recipientId,
    message: `Routing order ${r.routingOrder}: ${actsOnSigningPage(r) ? 'sent' : 'copy sent'} to ${r.name} <${r.email}>${note}.`,
  }));
  audit.push(...routedAudit(next, now, source, pausedBefore));
  return { envelope: next, reached, mails, signingTokens, audit };
}
