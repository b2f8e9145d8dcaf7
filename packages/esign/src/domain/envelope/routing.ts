import { assertRecipientTransition } from './envelope-transitions.ts';
import { signsDocuments } from './recipient-kinds.ts';
import type { Envelope, Recipient } from './envelope.ts';
import { resolveConditionalRecipients } from './conditional-recipients.ts';
import { activeHold, endActiveHold, triggerStepBefore } from './workflow.ts';

/** A recipient still to act: a signer whose turn came and who has not finished. */
function isPendingSigner(r: Recipient): boolean {
  return signsDocuments(r) && (r.status === 'sent' || r.status === 'delivered');
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
 */
export function advanceRouting(envelope: Envelope, now: Date): { envelope: Envelope; reached: Recipient[]; pausedBefore?: number } {
  if (activeHold(envelope.workflow)) return { envelope, reached: [] };
  let recipients = [...envelope.recipients];
  let workflow = envelope.workflow;
  let pausedBefore: number | undefined;
  const reached: Recipient[] = [];
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
    recipients = recipients.map((r) => {
      if (!isUnreached(r) || r.routingOrder !== order) return r;
      const status = signsDocuments(r) ? 'sent' : 'completed';
      assertRecipientTransition(r.status, status);
      const next: Recipient = { ...r, status, sentAt: now, ...(status === 'completed' ? { completedAt: now } : {}) };
      reached.push(next);
      return next;
    });
  }
  return { envelope: { ...envelope, recipients, ...(workflow ? { workflow } : {}) }, reached, ...(pausedBefore !== undefined ? { pausedBefore } : {}) };
}
