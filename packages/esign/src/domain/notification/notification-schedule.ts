import type { Envelope, Recipient } from '../envelope/envelope.ts';
import { actsOnSigningPage, isEmbedded } from '../envelope/recipient-kinds.ts';
import { workflowResumeAt } from '../envelope/workflow.ts';
import { notificationOf } from './envelope-notification.ts';

/**
 * The reminder and expiration arithmetic, pure: every time is derived from the envelope (its
 * sentAt, each signer's sentAt, the progress recorded in its notification) and the caller's
 * `now`. A "day" is 24 hours from the moment counted from; DocuSign counts days in the sending
 * account's time zone, which an account here does not have.
 */
export const DAY_MS = 86_400_000;

const addDays = (at: Date, days: number) => new Date(at.getTime() + days * DAY_MS);

/** Only envelopes in process remind, warn and expire (DocuSign "Envelope status codes"). */
export function isInProcess(envelope: Envelope): boolean {
  return envelope.status === 'sent' || envelope.status === 'delivered';
}

/**
 * The signers reminders and warnings go to: reached (their turn came), not finished, and
 * reached by e-mail. Embedded signers (clientUserId) get no mail from the service, so no
 * reminder either; carbon copies have nothing to do.
 */
export function pendingSigners(envelope: Envelope): Recipient[] {
  return envelope.recipients.filter((r) => actsOnSigningPage(r) && (r.status === 'sent' || r.status === 'delivered') && !isEmbedded(r) && r.sentAt !== undefined);
}

/**
 * When the envelope expires: expireAfter days after it was sent; undefined for a draft.
 * expireAfter 0 is DocuSign's "expire in less than one day": DocuSign counts days in the
 * account's time zone, so it ends with the sending day; here that day is the UTC one (the
 * next 00:00 UTC after sending), never the instant of sending, which would void the envelope
 * before anyone could open it.
 */
export function expiresAt(envelope: Envelope): Date | undefined {
  if (envelope.sentAt === undefined) return undefined;
  const days = notificationOf(envelope).settings.expireAfterDays;
  return days > 0 ? addDays(envelope.sentAt, days) : new Date((Math.floor(envelope.sentAt.getTime() / DAY_MS) + 1) * DAY_MS);
}

/** When the expiration warning is due; undefined when expireWarn is 0 or it already went. */
export function expirationWarningAt(envelope: Envelope): Date | undefined {
  const notification = notificationOf(envelope);
  const expiry = expiresAt(envelope);
  if (expiry === undefined || notification.settings.expireWarnDays <= 0 || notification.warnedAt !== undefined) return undefined;
  return addDays(expiry, -notification.settings.expireWarnDays);
}

/**
 * A signer's next reminder: reminderDelay days after they received the envelope ("Number of
 * days AFTER a person receives an envelope", DocuSign SOAP Notification), then every
 * reminderFrequency days after the previous reminder. Counting from the previous reminder
 * rather than from receipt means a scheduler that was down sends one reminder when it comes
 * back, not one per missed interval. Frequency 0: only the first.
 */
export function reminderDueAt(envelope: Envelope, recipient: Recipient): Date | undefined {
  const { settings, reminded } = notificationOf(envelope);
  if (!settings.reminderEnabled || recipient.sentAt === undefined) return undefined;
  const progress = reminded[recipient.recipientId];
  if (progress === undefined) return addDays(recipient.sentAt, settings.reminderDelayDays);
  return settings.reminderFrequencyDays > 0 ? addDays(progress.lastAt, settings.reminderFrequencyDays) : undefined;
}

/**
 * What is due at `now`. Expiry wins: once expired, nobody is warned or reminded any more, and a
 * held routing order is never reached. Then the end of a workflow hold (scheduled sending, a
 * delayed routing order: domain/envelope/workflow.ts), then reminders and the warning.
 */
export type DueWork =
  | { readonly kind: 'none' }
  | { readonly kind: 'expire'; readonly expiresAt: Date }
  | { readonly kind: 'resume'; readonly resumeAt: Date }
  /** `warn`: the warning is due (it is recorded as sent even when nobody is left to warn). */
  | { readonly kind: 'notify'; readonly reminders: readonly Recipient[]; readonly warn: boolean; readonly warnings: readonly Recipient[]; readonly expiresAt: Date };

export function dueWork(envelope: Envelope, now: Date): DueWork {
  if (!isInProcess(envelope)) return { kind: 'none' };
  const expiry = expiresAt(envelope);
  if (expiry !== undefined && now.getTime() >= expiry.getTime()) return { kind: 'expire', expiresAt: expiry };
  const resumeAt = workflowResumeAt(envelope.workflow);
  if (resumeAt !== undefined && now.getTime() >= resumeAt.getTime()) return { kind: 'resume', resumeAt };
  // A scheduled envelope not sent yet has no expiry and nobody to remind.
  if (expiry === undefined) return { kind: 'none' };
  const signers = pendingSigners(envelope);
  const warnAt = expirationWarningAt(envelope);
  const warn = warnAt !== undefined && now.getTime() >= warnAt.getTime();
  const reminders = signers.filter((r) => {
    const due = reminderDueAt(envelope, r);
    return due !== undefined && now.getTime() >= due.getTime();
  });
  return reminders.length === 0 && !warn ? { kind: 'none' } : { kind: 'notify', reminders, warn, warnings: warn ? signers : [], expiresAt: expiry };
}

/**
 * The earliest time anything becomes due, or undefined when nothing ever will (not in
 * process). The store keeps it in an indexed column, recomputed on every save of the envelope,
 * so the scheduler finds due envelopes with one range query.
 */
export function nextDueAt(envelope: Envelope): Date | undefined {
  if (!isInProcess(envelope)) return undefined;
  const expiry = expiresAt(envelope);
  const times = [workflowResumeAt(envelope.workflow), ...(expiry === undefined ? [] : [expiry, expirationWarningAt(envelope), ...pendingSigners(envelope).map((r) => reminderDueAt(envelope, r))])]
    .filter((d): d is Date => d !== undefined)
    .map((d) => d.getTime());
  return times.length === 0 ? undefined : new Date(Math.min(...times));
}
