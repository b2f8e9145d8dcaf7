import { EsignError } from '../errors.ts';
import { WireReader } from './wire-reader.ts';
import { API_DEFAULT_SETTINGS, type NotificationSettings } from '../domain/notification/envelope-notification.ts';

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

// DocuSign's limits: "The maximum expiration available is 999 days. If you set the value to 0,
// this will cause the envelope to expire in less than one day" (DocuSign support, envelope
// expiration settings): 0 is accepted and means the rest of the sending day
// (notification-schedule.ts expiresAt). The reminder counts get the same bound.
const MAX_DAYS = 999;
/** Reminders enabled without reminderDelay: one day after receipt, not at once (a reminder right after the invitation only repeats it). */
export const DEFAULT_REMINDER_DELAY_DAYS = 1;

const invalid = (detail: string) => new EsignError('INVALID_REQUEST_PARAMETER', detail);

function scalar(reader: WireReader): string | undefined {
  if (!reader.present) return undefined;
  const v = reader.value;
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw invalid(`${reader.path} must be a string.`);
  const text = String(v).trim();
  return text === '' ? undefined : text;
}

/** "true"/"false" (any case) or a JSON boolean: the SDK sends strings, hand-written calls booleans (esign-wire.md §0.10). */
function flag(reader: WireReader): boolean | undefined {
  const text = scalar(reader)?.toLowerCase();
  if (text === undefined) return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  throw invalid(`${reader.path} must be "true" or "false", got "${text}".`);
}

/** Whole days as "2" or 2. */
function days(reader: WireReader, min: number, max: number): number | undefined {
  const text = scalar(reader);
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw invalid(`${reader.path} must be a whole number of days from ${min} to ${max}, got "${text}".`);
  return Number(text);
}

/** Reads DocuSign's Notification shape {useAccountDefaults, reminders{…}, expirations{…}}; throws INVALID_REQUEST_PARAMETER naming the field. */
export function parseNotificationRequest(value: unknown, path = 'notification'): NotificationRequest {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalid(`${path} must be an object.`);
  const root = new WireReader(path, value);
  const section = (name: string): WireReader => {
    const reader = root.field(name);
    if (reader.present && (typeof reader.value !== 'object' || Array.isArray(reader.value))) throw invalid(`${reader.path} must be an object.`);
    return reader;
  };
  const reminders = section('reminders');
  const expirations = section('expirations');
  const entries: [keyof NotificationRequest, boolean | number | undefined][] = [
    ['useAccountDefaults', flag(root.field('useAccountDefaults'))],
    ['reminderEnabled', flag(reminders.field('reminderEnabled'))],
    ['reminderDelayDays', days(reminders.field('reminderDelay'), 0, MAX_DAYS)],
    ['reminderFrequencyDays', days(reminders.field('reminderFrequency'), 0, MAX_DAYS)],
    ['expireEnabled', flag(expirations.field('expireEnabled'))],
    ['expireAfterDays', days(expirations.field('expireAfter'), 0, MAX_DAYS)],
    ['expireWarnDays', days(expirations.field('expireWarn'), 0, MAX_DAYS)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== undefined));
}

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
