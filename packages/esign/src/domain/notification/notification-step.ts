import { assertEnvelopeTransition } from '../envelope/envelope-transitions.ts';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import type { EnvelopeChange, EnvelopeDeps, Random, SigningTokenRecord } from '../envelope/ports.ts';
import { newSigningLink } from '../envelope/signing-links.ts';
import { isEmbedded } from '../envelope/recipient-kinds.ts';
import type { AuditEvent } from '../signing/audit-event.ts';
import type { MailMessage } from '../mail/mail-message.ts';
import { notificationOf, type ReminderProgress } from './envelope-notification.ts';
import { dueWork } from './notification-schedule.ts';

/**
 * DocuSign's void reason for an expired envelope: "If the document expired, the void reason
 * will state 'Envelope has expired.'" (DocuSign support, How can I differentiate between
 * Expired and Voided envelopes?).
 */
export const EXPIRED_VOIDED_REASON = 'Envelope has expired.';

/** The scheduler's mails (reminders/notification-mails.ts renders them). */
export interface NotificationMails {
  reminder(envelope: Envelope, recipient: Recipient, signingToken: string, expiresAt: Date): MailMessage;
  expirationWarning(envelope: Envelope, recipient: Recipient, signingToken: string, expiresAt: Date): MailMessage;
  expired(envelope: Envelope, recipient: Recipient): MailMessage;
}

export type NotificationStepDeps = Pick<EnvelopeDeps, 'hashSecret'> & { readonly random: Pick<Random, 'secretToken'>; readonly mails: NotificationMails };

/**
 * What the scheduler does to one envelope at `now`, as one versioned change with its mails,
 * tokens and audit lines (the transactional outbox): expire it, or send the reminders and the
 * expiration warning that are due. Undefined when nothing is due. Two schedulers computing the
 * same step from the same version can only both try to save it; the store's version check
 * lets one through, so each mail goes once.
 */
export function notificationStep(deps: NotificationStepDeps, envelope: Envelope, now: Date): EnvelopeChange | undefined {
  const work = dueWork(envelope, now);
  // The end of a workflow hold is scheduledStep's (scheduled-step.ts): it needs the notifier.
  if (work.kind === 'none' || work.kind === 'resume') return undefined;
  const notification = notificationOf(envelope);
  const { settings } = notification;

  if (work.kind === 'expire') {
    assertEnvelopeTransition(envelope.status, 'voided');
    const voided: Envelope = { ...envelope, status: 'voided', voidedAt: now, voidedReason: EXPIRED_VOIDED_REASON, statusChangedAt: now, version: envelope.version + 1 };
    // As a void by the sender (void-envelope.ts): everyone already reached by mail is told.
    const mails = voided.recipients.filter((r) => r.sentAt !== undefined && !isEmbedded(r)).map((r) => deps.mails.expired(voided, r));
    const audit: AuditEvent[] = [{ envelopeId: envelope.envelopeId, at: now, action: 'Voided', envelopeStatus: 'voided', source: 'system', message: `${EXPIRED_VOIDED_REASON} It was not completed ${settings.expireAfterDays === 0 ? 'on the day it was sent' : `within ${settings.expireAfterDays} day(s) of being sent`}.` }];
    return { envelope: voided, signingTokens: [], mails, audit };
  }

  // Each mail carries a fresh signing link: the first one is stored only as its hash.
  const signingTokens: SigningTokenRecord[] = [];
  const linkFor = (r: Recipient): string => {
    const link = newSigningLink(deps, envelope.envelopeId, r.recipientId, now);
    signingTokens.push(link.record);
    return link.token;
  };
  const reminded: Record<string, ReminderProgress> = { ...notification.reminded };
  const mails: MailMessage[] = [];
  const audit: AuditEvent[] = [];
  for (const r of work.reminders) {
    reminded[r.recipientId] = { count: (reminded[r.recipientId]?.count ?? 0) + 1, lastAt: now };
    mails.push(deps.mails.reminder(envelope, r, linkFor(r), work.expiresAt));
    audit.push({ envelopeId: envelope.envelopeId, at: now, action: 'Sent', envelopeStatus: envelope.status, source: 'system', name: r.name, email: r.email, recipientId: r.recipientId, message: `Reminder sent to ${r.name} <${r.email}>.` });
  }
  for (const r of work.warnings) {
    mails.push(deps.mails.expirationWarning(envelope, r, linkFor(r), work.expiresAt));
    audit.push({ envelopeId: envelope.envelopeId, at: now, action: 'Sent', envelopeStatus: envelope.status, source: 'system', name: r.name, email: r.email, recipientId: r.recipientId, message: `Expiration warning sent to ${r.name} <${r.email}>: the envelope expires ${work.expiresAt.toISOString()}.` });
  }
  const next: Envelope = {
    ...envelope,
    notification: { ...notification, reminded, ...(work.warn ? { warnedAt: now } : {}) },
    version: envelope.version + 1,
  };
  return { envelope: next, signingTokens, mails, audit };
}

/**
 * The expiry alone, when it is due at `now` (undefined otherwise): what a signing request does
 * to an envelope whose expiry the scheduler has not acted on yet (it polls once a minute, and
 * can be behind). Without it a signer could still sign, view or decline an expired envelope in
 * that gap. It is the scheduler's own step, so whichever saves first wins (version check) and
 * the other recomputes or drops its change: the envelope expires once, with one set of mails.
 */
export function expiryIfDue(deps: NotificationStepDeps, envelope: Envelope, now: Date): EnvelopeChange | undefined {
  return dueWork(envelope, now).kind === 'expire' ? notificationStep(deps, envelope, now) : undefined;
}
