import type { NotificationSettings } from '../domain/notification/envelope-notification.ts';

/** DocuSign's Notification model, every scalar a string (docusign-esign src/model/Notification.js). */
export type WireNotification = {
  useAccountDefaults: string;
  reminders: { reminderEnabled: string; reminderDelay: string; reminderFrequency: string };
  expirations: { expireEnabled: string; expireAfter: string; expireWarn: string };
};

/** The effective settings; expireEnabled is always "true" because every envelope expires (parse-notification.ts). */
export function toWireNotification(settings: NotificationSettings): WireNotification {
  return {
    useAccountDefaults: String(settings.useAccountDefaults),
    reminders: { reminderEnabled: String(settings.reminderEnabled), reminderDelay: String(settings.reminderDelayDays), reminderFrequency: String(settings.reminderFrequencyDays) },
    expirations: { expireEnabled: 'true', expireAfter: String(settings.expireAfterDays), expireWarn: String(settings.expireWarnDays) },
  };
}
