import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../errors.ts';
import { API_DEFAULT_SETTINGS } from '../domain/notification/envelope-notification.ts';
import { applyNotificationRequest, DEFAULT_REMINDER_DELAY_DAYS } from '../domain/notification/notification-request.ts';
import { parseNotificationRequest } from './parse-notification.ts';
import { toWireNotification } from './to-wire-notification.ts';

const atCreate = (wire: unknown) => applyNotificationRequest(API_DEFAULT_SETTINGS, parseNotificationRequest(wire));
const refused = (fn: () => unknown, message: RegExp) =>
  assert.throws(fn, (err: unknown) => err instanceof EsignError && err.code === 'INVALID_REQUEST_PARAMETER' && message.test(err.message));

test('wire strings (the SDK) and raw numbers/booleans (hand-written calls) read alike, and go back out as strings', () => {
  const fromSdk = atCreate({ useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '1' }, expirations: { expireEnabled: 'True', expireAfter: '30', expireWarn: '5' } });
  const raw = atCreate({ reminders: { reminderEnabled: true, reminderDelay: 2, reminderFrequency: 1 }, expirations: { expireEnabled: true, expireAfter: 30, expireWarn: 5 } });
  assert.deepEqual(fromSdk, raw);
  assert.deepEqual(toWireNotification(fromSdk), {
    useAccountDefaults: 'false',
    reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '1' },
    expirations: { expireEnabled: 'true', expireAfter: '30', expireWarn: '5' },
  });
});

test('defaults: nothing said = DocuSign API defaults; reminders on without a delay = one day; expiry off = the 120-day default', () => {
  assert.deepEqual(atCreate({}), API_DEFAULT_SETTINGS);
  assert.deepEqual(atCreate({ reminders: { reminderEnabled: 'true' } }), { ...API_DEFAULT_SETTINGS, reminderEnabled: true, reminderDelayDays: DEFAULT_REMINDER_DELAY_DAYS });
  assert.deepEqual(atCreate({ expirations: { expireEnabled: 'false', expireAfter: '10', expireWarn: '2' } }), API_DEFAULT_SETTINGS);
  assert.deepEqual(atCreate({ expirations: { expireEnabled: 'true' } }), API_DEFAULT_SETTINGS);
  assert.equal(atCreate({ expirations: { expireAfter: '9' } }).expireAfterDays, 9, 'an explicit number is honoured without expireEnabled');
});

test('useAccountDefaults "true" wins over everything else in the request', () => {
  assert.deepEqual(atCreate({ useAccountDefaults: 'true', reminders: { reminderEnabled: 'true', reminderDelay: '2' }, expirations: { expireEnabled: 'true', expireAfter: '250' } }), { ...API_DEFAULT_SETTINGS, useAccountDefaults: true });
});

test('an update keeps what it does not mention', () => {
  const base = atCreate({ reminders: { reminderEnabled: 'true', reminderDelay: '3', reminderFrequency: '2' }, expirations: { expireAfter: '40', expireWarn: '4' } });
  assert.deepEqual(applyNotificationRequest(base, parseNotificationRequest({ reminders: { reminderFrequency: '5' } })), { ...base, reminderFrequencyDays: 5 });
  assert.deepEqual(applyNotificationRequest(base, parseNotificationRequest({})), base);
  // Reminders switched off, then on again: the delay set before is kept, not reset to the default.
  const off = applyNotificationRequest(base, parseNotificationRequest({ reminders: { reminderEnabled: 'false' } }));
  assert.deepEqual(applyNotificationRequest(off, parseNotificationRequest({ reminders: { reminderEnabled: 'true' } })), base);
});

test('limits: expireAfter 0..999 (0 is DocuSign\'s "less than one day"), expireWarn below expireAfter, days are whole and not negative', () => {
  assert.equal(atCreate({ expirations: { expireEnabled: 'true', expireAfter: '999' } }).expireAfterDays, 999);
  refused(() => atCreate({ expirations: { expireEnabled: 'true', expireAfter: '1000' } }), /expirations\.expireAfter must be a whole number of days from 0 to 999, got "1000"/);
  assert.equal(atCreate({ expirations: { expireEnabled: 'true', expireAfter: '0' } }).expireAfterDays, 0);
  refused(() => atCreate({ expirations: { expireEnabled: 'true', expireAfter: '0', expireWarn: '1' } }), /expireWarn \(1\) must be less than expireAfter \(0\)/);
  refused(() => atCreate({ expirations: { expireEnabled: 'true', expireAfter: '10', expireWarn: '10' } }), /expireWarn \(10\) must be less than expireAfter \(10\)/);
  assert.equal(atCreate({ expirations: { expireEnabled: 'true', expireAfter: '10', expireWarn: '9' } }).expireWarnDays, 9);
  refused(() => atCreate({ reminders: { reminderDelay: '-1' } }), /reminders\.reminderDelay/);
  refused(() => atCreate({ reminders: { reminderFrequency: '1.5' } }), /reminders\.reminderFrequency/);
  refused(() => atCreate({ reminders: { reminderEnabled: 'yes' } }), /reminders\.reminderEnabled must be "true" or "false", got "yes"/);
  refused(() => atCreate({ reminders: 'often' }), /notification\.reminders must be an object/);
  refused(() => atCreate([]), /notification must be an object/);
  assert.equal(atCreate({ reminders: { reminderDelay: '0', reminderEnabled: 'true' } }).reminderDelayDays, 0, 'zero is allowed: the first pass after receipt');
});
