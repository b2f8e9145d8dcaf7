import { EsignError } from '../../errors.ts';
import { checkConditionalRules, type ConditionalRecipientRule } from './conditional-recipients.ts';
import type { Recipient } from './envelope.ts';
import type { EnvelopeWorkflow, WorkflowStep } from './workflow.ts';

/** A workflow step as far as the recipients matter: the order it holds back and its rules. */
export type StepOnRecipients = { readonly routingOrder: number; readonly workflowStepId?: string; readonly conditionalRecipients?: readonly ConditionalRecipientRule[] };

/**
 * The workflow's steps still to come must fit the recipients, at create and after every change
 * to the recipients (a correction's routingOrder, a deletion): each holds back a routing order
 * some recipient has (a step before nobody would be a pause that silently does nothing), one
 * step per order, ids unique, and its conditional rules name a signer of that order and tabs of
 * recipients who act before it (conditional-recipients.ts). A change that would break one is
 * refused, naming the step, rather than leaving a workflow that can no longer run as asked.
 * `after` names the change in the message (absent at create).
 */
export function assertWorkflowFits(steps: readonly StepOnRecipients[], recipients: readonly Recipient[], after?: string): void {
  const routingOrders = new Set(recipients.map((r) => r.routingOrder));
  const seenOrders = new Set<number>();
  const seenIds = new Set<string>();
  const why = after === undefined ? '' : ` (after ${after}; change or delete the step first)`;
  for (const s of steps) {
    if (!routingOrders.has(s.routingOrder)) throw new EsignError('INVALID_REQUEST_BODY', `workflow.workflowSteps: itemId ${s.routingOrder} is not the routing order of any recipient${why}.`);
    if (seenOrders.has(s.routingOrder)) throw new EsignError('INVALID_REQUEST_BODY', `workflow.workflowSteps: itemId ${s.routingOrder} is repeated: one step per routing order.`);
    if (s.workflowStepId !== undefined && seenIds.has(s.workflowStepId)) throw new EsignError('INVALID_REQUEST_BODY', `workflow.workflowSteps: workflowStepId "${s.workflowStepId}" is repeated.`);
    seenOrders.add(s.routingOrder);
    if (s.workflowStepId !== undefined) seenIds.add(s.workflowStepId);
    if (s.conditionalRecipients) checkConditionalRules(s.conditionalRecipients, s.routingOrder, recipients);
  }
}

/** The steps routing has not reached yet: the ones a change to the recipients can still break. */
export function stepsToCome(workflow: EnvelopeWorkflow | undefined): readonly WorkflowStep[] {
  return (workflow?.steps ?? []).filter((s) => s.status === 'pending');
}
