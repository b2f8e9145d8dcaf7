import type { Envelope } from '../envelope/envelope.ts';
import type { EnvelopeDeps } from '../envelope/ports.ts';
import { updateEnvelope } from '../envelope/update-envelope.ts';
import { EsignError } from '../../errors.ts';
import { notificationOf } from './envelope-notification.ts';
import { expiresAt, isInProcess } from './notification-schedule.ts';
import { applyNotificationRequest, type NotificationRequest } from './notification-request.ts';

/**
 * The pure part of updateNotificationSettings: new settings on a draft or an envelope in
 * process; the progress (reminders already sent, the warning) is kept, so the schedule goes on
 * from where it is. DocuSign: "this request only specifies when notifications are sent; it does
 * not initiate sending of email messages" (EnvelopesApi.updateNotificationSettings).
 */
export function withNotificationSettings(envelope: Envelope, request: NotificationRequest, now: Date): Envelope {
  if (envelope.status !== 'created' && !isInProcess(envelope)) {
    throw new EsignError('ENVELOPE_INVALID_STATUS', `The notification settings of an envelope that is ${envelope.status} cannot change.`);
  }
  const current = notificationOf(envelope);
  const next: Envelope = { ...envelope, notification: { ...current, settings: applyNotificationRequest(current.settings, request) }, version: envelope.version + 1 };
  const expiry = expiresAt(next);
  // Expiry counts from the sent date; a new setting that is already over would void at once.
  // (An unchanged one that the scheduler has not acted on yet is not the caller's doing.)
  const changed = notificationOf(next).settings.expireAfterDays !== current.settings.expireAfterDays;
  if (changed && expiry !== undefined && expiry.getTime() <= now.getTime()) {
    throw new EsignError('INVALID_REQUEST_PARAMETER', `expireAfter ${notificationOf(next).settings.expireAfterDays} day(s) from the sent date has already passed (${expiry.toISOString()}).`);
  }
  return next;
}

/** DocuSign Envelopes::updateNotificationSettings (PUT …/envelopes/{envelopeId}/notification). */
export function updateNotificationSettings(deps: EnvelopeDeps, accountId: string, envelopeId: string, request: NotificationRequest): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => ({ envelope: withNotificationSettings(current, request, deps.clock()), signingTokens: [], mails: [] }));
}
