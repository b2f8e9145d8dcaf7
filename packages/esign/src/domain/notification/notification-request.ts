import { EsignError } from '../../errors.ts';
import { API_DEFAULT_SETTINGS, type NotificationSettings } from './envelope-notification.ts';

/** What a `notification` (EnvelopeDefinition) or EnvelopeNotificationRequest (PUT …/notification) asked for; absent = not said. */
export type NotificationRequest = {
  readonly useAccountDefaults?: boolean;
  readonly reminderEnabled?: boolean;
  readonly reminderDelayDays?: number;
  readonly reminderFrequencyDays?: number;
  readonly expireEnabled?: boolean;
  readonly expireAfterDays?: number;
  readonly expireWarnDays?: number;
};

/** Reminders enabled without reminderDelay: one day after receipt, not at once (a reminder right after the invitation only repeats it). */
export const DEFAULT_REMINDER_DELAY_DAYS = 1;

const invalid = (detail: string) => new EsignError('INVALID_REQUEST_PARAMETER', detail);

/**
 * The settings after a request, over `base` (the API defaults at create, the current settings
 * on PUT …/notification: what a request leaves out stays as it was). The rules, with their
 * sources (docs/esign-reminders.md):
 * - useAccountDefaults "true": the account defaults, "regardless of other parameters" (DocuSign
 *   blog, From the Trenches: Reminders and Expiration); an account here has the API defaults.
 * - expireEnabled "false": "the account default setting is used" (SDK model Expirations), so
 *   120 days and no warning; every envelope expires.
 * - expireEnabled absent but expireAfter/expireWarn given: the numbers are honoured (DocuSign
 *   would fall back to the account default; we take the explicit value over a silent default).
 * - reminders enabled without reminderDelay: DEFAULT_REMINDER_DELAY_DAYS.
 * - expireWarn must be less than expireAfter (a warning at or after expiry could never go).
 */
export function applyNotificationRequest(base: NotificationSettings, request: NotificationRequest): NotificationSettings {
  if (request.useAccountDefaults === true) return { ...API_DEFAULT_SETTINGS, useAccountDefaults: true };
  const reminderEnabled = request.reminderEnabled ?? base.reminderEnabled;
  // The default delay only where none was ever chosen (off with delay 0: the API defaults); a
  // delay set before reminders were switched off stays when they are switched on again.
  const reminderDelayDays = request.reminderDelayDays ?? (reminderEnabled && !base.reminderEnabled && base.reminderDelayDays === 0 ? DEFAULT_REMINDER_DELAY_DAYS : base.reminderDelayDays);
  const reminderFrequencyDays = request.reminderFrequencyDays ?? base.reminderFrequencyDays;
  const explicitExpiry = request.expireAfterDays !== undefined || request.expireWarnDays !== undefined;
  const expireEnabled = request.expireEnabled ?? (explicitExpiry ? true : undefined);
  const expireAfterDays = expireEnabled === false ? API_DEFAULT_SETTINGS.expireAfterDays : (request.expireAfterDays ?? base.expireAfterDays);
  const expireWarnDays = expireEnabled === false ? API_DEFAULT_SETTINGS.expireWarnDays : (request.expireWarnDays ?? base.expireWarnDays);
  if (expireWarnDays > 0 && expireWarnDays >= expireAfterDays) {
    throw invalid(`notification.expirations.expireWarn (${expireWarnDays}) must be less than expireAfter (${expireAfterDays}): the warning goes that many days before the envelope expires.`);
  }
  return { useAccountDefaults: false, reminderEnabled, reminderDelayDays, reminderFrequencyDays, expireAfterDays, expireWarnDays };
}
