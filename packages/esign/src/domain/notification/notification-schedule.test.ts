import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope, Recipient } from '../envelope/envelope.ts';
import { API_DEFAULT_SETTINGS, type NotificationSettings } from './envelope-notification.ts';
import { DAY_MS, dueWork, expirationWarningAt, expiresAt, nextDueAt, reminderDueAt } from './notification-schedule.ts';
import { EXPIRED_VOIDED_REASON, notificationStep, type NotificationStepDeps } from './notification-step.ts';

const SENT = new Date('2026-03-01T10:00:00.000Z');
const at = (days: number, ms = 0) => new Date(SENT.getTime() + days * DAY_MS + ms);

function signer(recipientId: string, overrides: Partial<Recipient> = {}): Recipient {
  return { recipientId, recipientIdGuid: `g${recipientId}`, type: 'signer', email: `s${recipientId}@example.com`, name: `Signer ${recipientId}`, routingOrder: 1, status: 'sent', sentAt: SENT, tabs: [], ...overrides };
}

function envelope(settings: Partial<NotificationSettings>, recipients: Recipient[] = [signer('1')], overrides: Partial<Envelope> = {}): Envelope {
  return {
    envelopeId: 'e1', accountId: 'a1', senderUserId: 'u1', status: 'sent', emailSubject: 'Contract', createdAt: SENT, statusChangedAt: SENT, sentAt: SENT,
    documents: [], recipients, version: 3,
    notification: { settings: { ...API_DEFAULT_SETTINGS, ...settings }, reminded: {} },
    ...overrides,
  };
}

/** Mails as plain records, so a test reads who got what. */
const deps: NotificationStepDeps = {
  random: { secretToken: () => 'tok' },
  hashSecret: (s) => `h(${s})`,
  mails: {
    reminder: (_e, r) => ({ kind: 'envelope-reminder', to: r, subject: '', text: '', html: '' }),
    expirationWarning: (_e, r) => ({ kind: 'expiration-warning', to: r, subject: '', text: '', html: '' }),
    expired: (_e, r) => ({ kind: 'envelope-expired', to: r, subject: '', text: '', html: '' }),
  },
};
const sent = (change: ReturnType<typeof notificationStep>) => change?.mails.map((m) => `${m.kind}:${m.to.email}`) ?? [];

/** Runs the scheduler's step at each time in turn, saving each change, as the store would. */
function run(start: Envelope, times: Date[]): { envelope: Envelope; log: string[] } {
  let e = start;
  const log: string[] = [];
  for (const now of times) {
    const change = notificationStep(deps, e, now);
    if (change) {
      e = change.envelope;
      log.push(...sent(change).map((s) => `${(now.getTime() - SENT.getTime()) / DAY_MS}d ${s}`));
    }
  }
  return { envelope: e, log };
}

test('expiry: expireAfter days after sending, exactly at the limit, not a millisecond before', () => {
  const e = envelope({ expireAfterDays: 5 });
  assert.deepEqual(expiresAt(e), at(5));
  assert.equal(dueWork(e, at(5, -1)).kind, 'none');
  assert.equal(dueWork(e, at(5)).kind, 'expire');
  const change = notificationStep(deps, e, at(5));
  assert.equal(change?.envelope.status, 'voided');
  assert.equal(change?.envelope.voidedReason, EXPIRED_VOIDED_REASON);
  assert.equal(change?.envelope.version, 4);
  assert.deepEqual(sent(change), ['envelope-expired:s1@example.com']);
  assert.equal(change?.audit?.[0]?.action, 'Voided');
  // Voided is final: nothing is ever due again.
  assert.equal(nextDueAt(change?.envelope), undefined);
});

test('an envelope without notification gets DocuSign\'s API defaults: 120 days, no reminder, no warning', () => {
  const { notification: _n, ...plain } = envelope({});
  assert.deepEqual(nextDueAt(plain), at(120));
  assert.deepEqual(run(plain, [at(1), at(60), at(119)]).log, []);
  assert.deepEqual(run(plain, [at(120)]).log, ['120d envelope-expired:s1@example.com']);
});

test('a draft and a finished envelope have no schedule', () => {
  const { sentAt: _s, ...draft } = envelope({ reminderEnabled: true, reminderDelayDays: 1 }, [signer('1', { status: 'created' })], { status: 'created' });
  assert.equal(nextDueAt(draft), undefined);
  assert.equal(expiresAt(draft), undefined);
  assert.equal(nextDueAt(envelope({}, [signer('1', { status: 'completed' })], { status: 'completed' })), undefined);
  assert.equal(notificationStep(deps, envelope({}, [], { status: 'completed' }), at(500)), undefined);
});

test('reminders: first after reminderDelay days, then every reminderFrequency days from the last one', () => {
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 2, reminderFrequencyDays: 3, expireAfterDays: 30 });
  assert.deepEqual(reminderDueAt(e, signer('1')), at(2));
  // Polled twice a day: the reminders land on days 2, 5, 8, ... each exactly once.
  const times = Array.from({ length: 24 }, (_, i) => at(i / 2));
  const { envelope: after, log } = run(e, times);
  assert.deepEqual(log, ['2d envelope-reminder:s1@example.com', '5d envelope-reminder:s1@example.com', '8d envelope-reminder:s1@example.com', '11d envelope-reminder:s1@example.com']);
  assert.deepEqual(after.notification?.reminded['1'], { count: 4, lastAt: at(11) });
  assert.deepEqual(nextDueAt(after), at(14));
});

test('a scheduler that was down sends one reminder when it comes back, not one per missed interval', () => {
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 1, reminderFrequencyDays: 1, expireAfterDays: 30 });
  assert.deepEqual(run(e, [at(10), at(10, 1000), at(10.5)]).log, ['10d envelope-reminder:s1@example.com']);
});

test('frequency 0: a single reminder', () => {
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 1, reminderFrequencyDays: 0, expireAfterDays: 30 });
  const { envelope: after, log } = run(e, [at(1), at(2), at(10), at(29)]);
  assert.deepEqual(log, ['1d envelope-reminder:s1@example.com']);
  assert.deepEqual(nextDueAt(after), at(30), 'only the expiry is left');
});

test('reminders go to pending e-mail signers only, each counted from when they were reached', () => {
  const recipients = [
    signer('1', { status: 'completed', signedAt: at(1) }),
    signer('2', { routingOrder: 2, sentAt: at(1) }),
    signer('3', { routingOrder: 2, sentAt: at(1), clientUserId: 'embedded' }),
    signer('4', { routingOrder: 3, status: 'created', sentAt: undefined }),
    { ...signer('5'), type: 'carbonCopy' as const, status: 'completed' as const },
  ];
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 2, expireAfterDays: 30 }, recipients);
  assert.deepEqual(nextDueAt(e), at(3));
  assert.deepEqual(run(e, [at(2), at(3)]).log, ['3d envelope-reminder:s2@example.com']);
});

test('reminders disabled: none, whatever the delay', () => {
  const e = envelope({ reminderEnabled: false, reminderDelayDays: 1, reminderFrequencyDays: 1, expireAfterDays: 10 });
  assert.deepEqual(run(e, [at(1), at(2), at(9)]).log, []);
});

test('the expiration warning goes once, expireWarn days before expiry, to the pending signers', () => {
  const e = envelope({ expireAfterDays: 10, expireWarnDays: 3 }, [signer('1'), signer('2', { status: 'delivered' })]);
  assert.deepEqual(expirationWarningAt(e), at(7));
  const { envelope: after, log } = run(e, [at(6), at(7), at(8), at(9.9)]);
  assert.deepEqual(log, ['7d expiration-warning:s1@example.com', '7d expiration-warning:s2@example.com']);
  assert.deepEqual(after.notification?.warnedAt, at(7));
  assert.deepEqual(nextDueAt(after), at(10));
});

test('a warning whose time came only after expiry is not sent: the envelope just expires', () => {
  const e = envelope({ expireAfterDays: 10, expireWarnDays: 3, reminderEnabled: true, reminderDelayDays: 9 });
  assert.deepEqual(run(e, [at(12)]).log, ['12d envelope-expired:s1@example.com']);
});

test('a warning with nobody left to warn (embedded signers only) is recorded, so it is not due forever', () => {
  const e = envelope({ expireAfterDays: 10, expireWarnDays: 3 }, [signer('1', { clientUserId: 'x' })]);
  const change = notificationStep(deps, e, at(7));
  assert.deepEqual(sent(change), []);
  assert.deepEqual(change?.envelope.notification?.warnedAt, at(7));
  assert.deepEqual(nextDueAt(change?.envelope), at(10));
});

test('reminder and warning mails carry fresh signing links, stored hashed', () => {
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 1, expireAfterDays: 10, expireWarnDays: 9 });
  const change = notificationStep(deps, e, at(1));
  assert.deepEqual(sent(change), ['envelope-reminder:s1@example.com', 'expiration-warning:s1@example.com']);
  assert.deepEqual(change?.signingTokens.map((t) => [t.recipientId, t.tokenHash, t.purpose]), [['1', 'h(tok)', 'signing'], ['1', 'h(tok)', 'signing']]);
  assert.equal(change?.envelope.status, 'sent');
  assert.equal(change?.envelope.version, 4);
});

test('expireAfter 0 (DocuSign\'s "less than one day"): the envelope expires at the end of its sending day (UTC)', () => {
  const morning = envelope({ expireAfterDays: 0 });
  assert.deepEqual(expiresAt(morning), new Date('2026-03-02T00:00:00.000Z'));
  assert.equal(dueWork(morning, new Date('2026-03-01T23:59:59.999Z')).kind, 'none');
  assert.equal(dueWork(morning, new Date('2026-03-02T00:00:00.000Z')).kind, 'expire');
  // Sent at midnight itself: the whole day, never the instant of sending.
  const midnight = new Date('2026-03-01T00:00:00.000Z');
  assert.deepEqual(expiresAt(envelope({ expireAfterDays: 0 }, [signer('1', { sentAt: midnight })], { sentAt: midnight })), new Date('2026-03-02T00:00:00.000Z'));
});

test('days are 24 hours from the moment sent: month ends, leap days and year ends need no calendar', () => {
  const sentOn = (iso: string, days: number) => {
    const sent = new Date(iso);
    return expiresAt(envelope({ expireAfterDays: days }, [signer('1', { sentAt: sent })], { sentAt: sent }))?.toISOString();
  };
  assert.equal(sentOn('2026-01-31T18:00:00.000Z', 30), '2026-03-02T18:00:00.000Z');
  assert.equal(sentOn('2028-02-28T12:00:00.000Z', 1), '2028-02-29T12:00:00.000Z');
  assert.equal(sentOn('2028-02-29T12:00:00.000Z', 1), '2028-03-01T12:00:00.000Z');
  assert.equal(sentOn('2026-12-31T23:59:59.999Z', 1), '2027-01-01T23:59:59.999Z');
  assert.equal(sentOn('2026-03-01T10:00:00.000Z', 999), '2028-11-24T10:00:00.000Z');
});

test('reminderDelay 0: the first reminder is due as soon as the signer is reached (the next pass)', () => {
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 0, reminderFrequencyDays: 2, expireAfterDays: 30 });
  assert.deepEqual(reminderDueAt(e, signer('1')), at(0));
  const minute = 60_000 / DAY_MS;
  assert.deepEqual(run(e, [at(0, 60_000), at(1), at(2, 60_000)]).log, [`${minute}d envelope-reminder:s1@example.com`, `${2 + minute}d envelope-reminder:s1@example.com`]);
});

test('settings changed mid-flight: the next reminder counts the new frequency from the last one sent; a longer expiry moves the end', () => {
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 1, reminderFrequencyDays: 5, expireAfterDays: 10 });
  const { envelope: reminded } = run(e, [at(1)]);
  assert.deepEqual(nextDueAt(reminded), at(6));
  const changed: Envelope = { ...reminded, notification: { settings: { ...API_DEFAULT_SETTINGS, reminderEnabled: true, reminderDelayDays: 1, reminderFrequencyDays: 2, expireAfterDays: 20 }, reminded: reminded.notification?.reminded ?? {} } };
  assert.deepEqual(nextDueAt(changed), at(3));
  assert.deepEqual(run(changed, [at(3), at(5), at(10), at(19.9), at(20)]).log.at(-1), '20d envelope-expired:s1@example.com');
});

test('routing moves on: the next signer\'s reminder clock starts when they were reached, not when the envelope was sent', () => {
  const first = signer('1', { status: 'completed', signedAt: at(4) });
  const second = signer('2', { routingOrder: 2, sentAt: at(4) });
  const e = envelope({ reminderEnabled: true, reminderDelayDays: 3, reminderFrequencyDays: 0, expireAfterDays: 30 }, [first, second], { notification: { settings: { ...API_DEFAULT_SETTINGS, reminderEnabled: true, reminderDelayDays: 3, expireAfterDays: 30 }, reminded: { '1': { count: 1, lastAt: at(3) } } } });
  assert.deepEqual(nextDueAt(e), at(7));
  assert.deepEqual(run(e, [at(6), at(7)]).log, ['7d envelope-reminder:s2@example.com']);
});
