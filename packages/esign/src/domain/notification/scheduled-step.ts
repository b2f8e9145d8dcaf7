import type { Envelope } from '../envelope/envelope.ts';
import type { EnvelopeChange, EnvelopeDeps } from '../envelope/ports.ts';
import { resumeWorkflow } from '../envelope/resume-workflow.ts';
import { notificationStep, type NotificationStepDeps } from './notification-step.ts';
import { dueWork } from './notification-schedule.ts';

/** What the scheduler's step runs on: the notification mails, and the notifier for routing that resumes. */
export type ScheduledStepDeps = NotificationStepDeps & Pick<EnvelopeDeps, 'notifier'>;

/**
 * The scheduler's one step for an envelope at `now` (reminders/reminder-scheduler.ts): the end
 * of a workflow hold whose time came (the held routing order is reached, with its mails), or
 * else notificationStep's expiry, reminders and warning. Undefined when nothing is due. One
 * versioned change either way, so two schedulers do it once.
 */
export function scheduledStep(deps: ScheduledStepDeps, envelope: Envelope, now: Date): EnvelopeChange | undefined {
  return dueWork(envelope, now).kind === 'resume' ? resumeWorkflow(deps, envelope, now, 'system') : notificationStep(deps, envelope, now);
}
