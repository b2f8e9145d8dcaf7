import { activeHold, workflowResumeAt, workflowStatus, type DelayRule, type EnvelopeWorkflow, type ScheduledSending, type WorkflowStep } from '../domain/envelope/workflow.ts';
import type { ConditionalRecipientRule } from '../domain/envelope/conditional-recipients.ts';
import { toDocuSignDateTime } from './docusign-date-time.ts';

const at = (d: Date | undefined) => (d === undefined ? undefined : toDocuSignDateTime(d));

/** A delay rule as the SDK's EnvelopeDelayRule: `d.hh:mm:ss` or the resume date. */
function toWireRule(rule: DelayRule): { delay?: string; resumeDate?: string } {
  if (rule.kind === 'resumeDate') return { resumeDate: toDocuSignDateTime(rule.at) };
  const s = Math.round(rule.delayMs / 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const days = Math.floor(s / 86_400);
  return { delay: `${days > 0 ? `${days}.` : ''}${pad(Math.floor(s / 3600) % 24)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}` };
}

/** ScheduledSending as the SDK reads it. */
export function toWireScheduledSending(s: ScheduledSending): Record<string, unknown> {
  return { rules: [toWireRule(s.rule)], status: s.status, resumeDate: at(s.resumeAt) };
}

/** A conditional recipient rule as the SDK's ConditionalRecipientRule reads it (ids and orders as strings). */
function toWireRuleOf(rule: ConditionalRecipientRule): Record<string, unknown> {
  return {
    recipientId: rule.recipientId,
    order: String(rule.order),
    recipientGroup: { groupName: rule.groupName, groupMessage: rule.groupMessage, recipients: rule.options.map((o) => ({ recipientLabel: o.label, name: o.name, email: o.email, roleName: o.roleName })) },
    conditions: rule.conditions.map((c) => ({ order: String(c.order), recipientLabel: c.recipientLabel, filters: c.filters.map((f) => ({ scope: 'tabs', recipientId: f.recipientId, tabLabel: f.tabLabel, tabType: f.tabType, operator: f.operator, value: f.value })) })),
  };
}

/** One WorkflowStep as the SDK reads it (itemId and ids are strings, as DocuSign writes them). */
export function toWireWorkflowStep(step: WorkflowStep): Record<string, unknown> {
  return {
    workflowStepId: step.workflowStepId,
    action: 'pause_before',
    triggerOnItem: 'routing_order',
    itemId: String(step.routingOrder),
    status: step.status,
    triggeredDate: at(step.triggeredAt),
    completedDate: at(step.completedAt),
    ...(step.delay ? { delayedRouting: { rules: [toWireRule(step.delay)], status: step.status, resumeDate: at(step.resumeAt) } } : {}),
    ...(step.conditionalRecipients ? { recipientRouting: { rules: { conditionalRecipients: step.conditionalRecipients.map(toWireRuleOf) } } } : {}),
  };
}

/**
 * The Workflow model: workflowStatus paused while a hold is on, the step in progress, and
 * resumeDate when the hold ends on its own. An envelope without a workflow answers an empty
 * in_progress one, as every DocuSign envelope has a workflow.
 */
export function toWireWorkflow(workflow: EnvelopeWorkflow | undefined): Record<string, unknown> {
  const hold = activeHold(workflow);
  return {
    workflowStatus: workflowStatus(workflow),
    currentWorkflowStepId: hold?.kind === 'step' ? hold.step.workflowStepId : undefined,
    resumeDate: at(workflowResumeAt(workflow)),
    ...(workflow?.scheduledSending ? { scheduledSending: toWireScheduledSending(workflow.scheduledSending) } : {}),
    workflowSteps: (workflow?.steps ?? []).map(toWireWorkflowStep),
  };
}
