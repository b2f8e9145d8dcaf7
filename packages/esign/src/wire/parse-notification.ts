import { EsignError } from '../errors.ts';
import { WireReader } from './wire-reader.ts';
import type { NotificationRequest } from '../domain/notification/notification-request.ts';

// DocuSign's limits: "The maximum expiration available is 999 days. If you set the value to 0,
// this will cause the envelope to expire in less than one day" (DocuSign support, envelope
// expiration settings): 0 is accepted and means the rest of the sending day
// (notification-schedule.ts expiresAt). The reminder counts get the same bound.
const MAX_DAYS = 999;
const invalid = (detail: string) => new EsignError('INVALID_REQUEST_PARAMETER', detail);

function scalar(reader: WireReader): string | undefined {
  if (!reader.present) return undefined;
  const v = reader.value;
  if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') throw invalid(`${reader.path} must be a string.`);
  const text = String(v).trim();
  return text === '' ? undefined : text;
}

/** "true"/"false" (any case) or a JSON boolean: the SDK sends strings, hand-written calls booleans (docs/esign-reminders.md, "Wire"). */
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
