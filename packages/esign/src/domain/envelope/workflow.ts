import { assertWorkflowFits } from './assert-workflow-fits.ts';
import type { ConditionalRecipientRule } from './conditional-recipients.ts';
import type { Recipient } from './envelope.ts';

/**
 * DocuSign's envelope workflow (SDK models Workflow, WorkflowStep, ScheduledSending,
 * DelayedRouting, EnvelopeDelayRule): the three "Advanced Recipient Routing" holds this service
 * runs, each a pause in routing that ends on its own or by the sender's call.
 *
 * - scheduled sending: a sent envelope reaches nobody until its rule's time (docs/esign-workflow.md);
 * - a `pause_before` step on a routing order: routing stops before that order until the sender
 *   sets workflowStatus back to in_progress (Envelopes::update);
 * - the same step with delayed routing: it ends on its own once its delay has passed.
 *
 * Pure data, versioned with the envelope; the notification scheduler resumes what is due.
 */

/** When a hold ends: a delay counted from when it begins, or a fixed time. */
export type DelayRule = { readonly kind: 'delay'; readonly delayMs: number } | { readonly kind: 'resumeDate'; readonly at: Date };

/** DocuSign's step and schedule statuses. */
export type HoldStatus = 'pending' | 'in_progress' | 'completed';

/** A pause before one routing order (action pause_before, triggerOnItem routing_order). */
export type WorkflowStep = {
  readonly workflowStepId: string;
  /** The routing order it holds back (the step's itemId). */
  readonly routingOrder: number;
  /** Delayed routing: the hold ends on its own. Without it, only the sender's unpause ends it. */
  readonly delay?: DelayRule;
  /**
   * Conditional recipients (conditional-recipients.ts): when routing reaches the order, these
   * name its placeholder signers and routing goes on; only when no condition names one does
   * the step hold, as a pause the sender ends.
   */
  readonly conditionalRecipients?: readonly ConditionalRecipientRule[];
  readonly status: HoldStatus;
  /** When routing reached the step and stopped. */
  readonly triggeredAt?: Date;
  /** When a delayed step resumes (set when it is triggered). */
  readonly resumeAt?: Date;
  readonly completedAt?: Date;
};

/** Scheduled sending: the first routing order is reached at the rule's time, not at sending. */
export type ScheduledSending = {
  readonly rule: DelayRule;
  readonly status: HoldStatus;
  /** Set when the envelope is sent: the rule's time. */
  readonly resumeAt?: Date;
  readonly completedAt?: Date;
};

export type EnvelopeWorkflow = {
  readonly scheduledSending?: ScheduledSending;
  /** In routing order. */
  readonly steps: readonly WorkflowStep[];
};

/** A step as a request asks for it. */
export type WorkflowStepDraft = { readonly routingOrder: number; readonly workflowStepId?: string; readonly delay?: DelayRule; readonly conditionalRecipients?: readonly ConditionalRecipientRule[] };

/** A workflow as a request asks for it: what to hold, nothing started yet. */
export type WorkflowDraft = {
  /** Scheduled sending's rule. */
  readonly scheduledSending?: DelayRule;
  readonly steps: readonly WorkflowStepDraft[];
};

/** A draft's workflow as a request would have asked for it (every hold of a draft is pending). */
export function workflowDraftOf(workflow: EnvelopeWorkflow | undefined): WorkflowDraft {
  return {
    ...(workflow?.scheduledSending ? { scheduledSending: workflow.scheduledSending.rule } : {}),
    steps: (workflow?.steps ?? []).map((s) => ({ routingOrder: s.routingOrder, workflowStepId: s.workflowStepId, ...(s.delay ? { delay: s.delay } : {}), ...(s.conditionalRecipients ? { conditionalRecipients: s.conditionalRecipients } : {}) })),
  };
}

/**
 * A new envelope's workflow from its draft, every hold pending; steps without an id get
 * `uuid()`. The steps must fit the recipients (assert-workflow-fits.ts), as they must after
 * every later correction or deletion.
 */
export function newWorkflow(draft: WorkflowDraft, recipients: readonly Recipient[], uuid: () => string): EnvelopeWorkflow {
  assertWorkflowFits(draft.steps, recipients);
  return {
    ...(draft.scheduledSending ? { scheduledSending: { rule: draft.scheduledSending, status: 'pending' as const } } : {}),
    steps: [...draft.steps].sort((a, b) => a.routingOrder - b.routingOrder).map((s) => ({
      workflowStepId: s.workflowStepId ?? uuid(), routingOrder: s.routingOrder, status: 'pending' as const, ...(s.delay ? { delay: s.delay } : {}), ...(s.conditionalRecipients ? { conditionalRecipients: s.conditionalRecipients } : {}),
    })),
  };
}

/** When a hold that begins at `from` ends under `rule`. */
export function ruleTime(rule: DelayRule, from: Date): Date {
  return rule.kind === 'delay' ? new Date(from.getTime() + rule.delayMs) : rule.at;
}

/** The hold routing waits on now, if any: the schedule, or the step in progress. */
export function activeHold(workflow: EnvelopeWorkflow | undefined): { kind: 'scheduled'; resumeAt?: Date } | { kind: 'step'; step: WorkflowStep; resumeAt?: Date } | undefined {
  if (!workflow) return undefined;
  const s = workflow.scheduledSending;
  if (s?.status === 'in_progress') return { kind: 'scheduled', ...(s.resumeAt ? { resumeAt: s.resumeAt } : {}) };
  const step = workflow.steps.find((w) => w.status === 'in_progress');
  return step ? { kind: 'step', step, ...(step.resumeAt ? { resumeAt: step.resumeAt } : {}) } : undefined;
}

/** DocuSign's workflowStatus: paused while a hold is on, else in_progress. */
export function workflowStatus(workflow: EnvelopeWorkflow | undefined): 'paused' | 'in_progress' {
  return activeHold(workflow) ? 'paused' : 'in_progress';
}

/** When the hold in progress ends on its own; undefined when none does (no hold, or a plain pause). */
export function workflowResumeAt(workflow: EnvelopeWorkflow | undefined): Date | undefined {
  return activeHold(workflow)?.resumeAt;
}

/** The workflow with the hold in progress ended at `now`; unchanged when there is none. */
export function endActiveHold(workflow: EnvelopeWorkflow, now: Date): EnvelopeWorkflow {
  const hold = activeHold(workflow);
  if (!hold) return workflow;
  if (hold.kind === 'scheduled' && workflow.scheduledSending) {
    return { ...workflow, scheduledSending: { ...workflow.scheduledSending, status: 'completed', completedAt: now } };
  }
  return { ...workflow, steps: workflow.steps.map((s) => (s.status === 'in_progress' ? { ...s, status: 'completed' as const, completedAt: now } : s)) };
}

/**
 * Routing is about to reach `routingOrder` at `now`: the step pending for it starts (routing
 * stops there), and the workflow after that is returned; undefined when no step holds that
 * order back.
 */
export function triggerStepBefore(workflow: EnvelopeWorkflow | undefined, routingOrder: number, now: Date): EnvelopeWorkflow | undefined {
  if (!workflow) return undefined;
  const step = workflow.steps.find((s) => s.status === 'pending' && s.routingOrder === routingOrder);
  if (!step) return undefined;
  const started: WorkflowStep = { ...step, status: 'in_progress', triggeredAt: now, ...(step.delay ? { resumeAt: ruleTime(step.delay, now) } : {}) };
  return { ...workflow, steps: workflow.steps.map((s) => (s === step ? started : s)) };
}
