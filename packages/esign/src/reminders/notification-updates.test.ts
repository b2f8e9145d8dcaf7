import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import type { Notification } from '../domain/envelope/ports.ts';
import { EsignError } from '../errors.ts';
import { API_DEFAULT_SETTINGS } from '../domain/notification/envelope-notification.ts';
import { DAY_MS } from '../domain/notification/notification-schedule.ts';
import { resendPending } from '../domain/envelope/resend-envelope.ts';
import { withEmail } from '../domain/envelope/update-envelope-email.ts';
import { withNotificationSettings } from '../domain/notification/update-notification-settings.ts';

const SENT = new Date('2026-03-01T10:00:00.000Z');
const signer = (recipientId: string, overrides: Partial<Recipient> = {}): Recipient =>
  ({ recipientId, recipientIdGuid: `g${recipientId}`, type: 'signer', email: `s${recipientId}@example.com`, name: `S${recipientId}`, routingOrder: 1, status: 'sent', sentAt: SENT, tabs: [], ...overrides });
const envelope = (overrides: Partial<Envelope> = {}): Envelope => ({
  envelopeId: 'e1', accountId: 'a1', senderUserId: 'u1', status: 'sent', emailSubject: 'Old', createdAt: SENT, statusChangedAt: SENT, sentAt: SENT, documents: [],
  recipients: [signer('1'), signer('2', { status: 'completed' }), signer('3', { clientUserId: 'x' }), signer('4', { routingOrder: 2, status: 'created' })],
  notification: { settings: API_DEFAULT_SETTINGS, reminded: { 1: { count: 2, lastAt: SENT } } }, version: 7, ...overrides,
});
const code = (c: string) => (err: unknown) => err instanceof EsignError && err.code === c;

test('new settings keep the progress and bump the version; an expiry already over, or a finished envelope, is refused', () => {
  const next = withNotificationSettings(envelope(), { reminderEnabled: true, expireAfterDays: 5 }, new Date(SENT.getTime() + 4 * DAY_MS));
  assert.deepEqual(next.notification?.reminded, { 1: { count: 2, lastAt: SENT } });
  assert.deepEqual([next.notification?.settings.reminderEnabled, next.notification?.settings.expireAfterDays, next.version], [true, 5, 8]);
  assert.throws(() => withNotificationSettings(envelope(), { expireAfterDays: 4 }, new Date(SENT.getTime() + 4 * DAY_MS)), code('INVALID_REQUEST_PARAMETER'));
  assert.throws(() => withNotificationSettings(envelope({ status: 'completed' }), { reminderEnabled: true }, SENT), code('ENVELOPE_INVALID_STATUS'));
  // A draft has no sent date yet: any expiry is fine.
  const { sentAt: _s, ...draft } = envelope({ status: 'created' });
  assert.equal(withNotificationSettings(draft, { expireAfterDays: 1 }, new Date(SENT.getTime() + 400 * DAY_MS)).notification?.settings.expireAfterDays, 1);
});

test('resend goes to the pending e-mail signers only, each with a fresh link', () => {
  const told: Notification[] = [];
  const change = resendPending({
    random: { uuid: () => 'u', secretToken: () => 'fresh' },
    hashSecret: (s) => `h(${s})`,
    notifier: { compose: (n, e) => (told.push(n), { kind: n.kind, to: { email: e.recipients.find((r) => r.recipientId === n.recipientId)?.email ?? '', name: '' }, subject: e.emailSubject, text: '', html: '' }) },
  }, envelope(), SENT);
  assert.deepEqual(told, [{ kind: 'envelope-sent', recipientId: '1', signingToken: 'fresh' }]);
  assert.deepEqual(change.signingTokens.map((t) => [t.recipientId, t.tokenHash]), [['1', 'h(fresh)']]);
  assert.equal(change.envelope.version, 8);
  assert.throws(() => resendPending({ random: { uuid: () => 'u', secretToken: () => 't' }, hashSecret: (s) => s, notifier: { compose: () => { throw new Error('no'); } } }, envelope({ status: 'voided' }), SENT), code('ENVELOPE_INVALID_STATUS'));
});

test('subject and message change on drafts and envelopes in process, not on finished ones', () => {
  assert.deepEqual([withEmail(envelope(), { emailSubject: 'New' }).emailSubject, withEmail(envelope({ status: 'created' }), { emailBlurb: 'Hi' }).emailBlurb], ['New', 'Hi']);
  for (const status of ['completed', 'declined', 'voided'] as const) assert.throws(() => withEmail(envelope({ status }), { emailSubject: 'New' }), code('ENVELOPE_INVALID_STATUS'));
});

test('an envelope whose expiry is due but not yet acted on can still change its reminders', () => {
  const late = new Date(SENT.getTime() + 121 * DAY_MS);
  assert.equal(withNotificationSettings(envelope(), { reminderEnabled: true }, late).notification?.settings.reminderEnabled, true);
  assert.throws(() => withNotificationSettings(envelope(), { expireAfterDays: 100 }, late), code('INVALID_REQUEST_PARAMETER'));
});
