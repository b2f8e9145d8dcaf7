/**
 * An envelope's reminder and expiration settings (DocuSign's `notification`: Notification,
 * Reminders, Expirations in the SDK's models) and what the scheduler has already done about
 * them. Pure data; counts are whole days, as on the wire.
 */
export type NotificationSettings = {
  /** Asked for the account's defaults; this service's account defaults are the API defaults below. */
  readonly useAccountDefaults: boolean;
  readonly reminderEnabled: boolean;
  /** Days after a signer received the envelope before their first reminder. */
  readonly reminderDelayDays: number;
  /** Days between reminders after the first; 0 = a single reminder. */
  readonly reminderFrequencyDays: number;
  /** Days after sending when the envelope expires (is voided). Every envelope expires. */
  readonly expireAfterDays: number;
  /** Days before expiry when pending signers are warned; 0 = no warning. */
  readonly expireWarnDays: number;
};

/** Reminders already sent to one recipient. */
export type ReminderProgress = { readonly count: number; readonly lastAt: Date };

/** The settings and the schedule's progress: part of the envelope aggregate (versioned with it). */
export type EnvelopeNotification = {
  readonly settings: NotificationSettings;
  /** When the expiration warning went out (it goes once). */
  readonly warnedAt?: Date;
  /** Per recipientId. */
  readonly reminded: Readonly<Record<string, ReminderProgress>>;
};

/**
 * DocuSign's defaults for an API envelope without `notification`: "no reminders, no expiration
 * warning, and a 120 day expiration timer" (DocuSign blog, From the Trenches: Reminders and
 * Expiration). An account here has no settings of its own, so these are also what
 * useAccountDefaults and expireEnabled "false" ("the account default setting is used", SDK
 * model Expirations) resolve to.
 */
export const API_DEFAULT_SETTINGS: NotificationSettings = Object.freeze({
  useAccountDefaults: false,
  reminderEnabled: false,
  reminderDelayDays: 0,
  reminderFrequencyDays: 0,
  expireAfterDays: 120,
  expireWarnDays: 0,
});

/** The notification of an envelope that never had one (stored before this feature): the defaults. */
export function notificationOf(envelope: { readonly notification?: EnvelopeNotification }): EnvelopeNotification {
  return envelope.notification ?? { settings: API_DEFAULT_SETTINGS, reminded: {} };
}
