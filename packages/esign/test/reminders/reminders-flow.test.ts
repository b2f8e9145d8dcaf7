import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { request } from 'undici';
import { pollUntil } from '@signet/kit';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { DAY_S, onePagePdf, startReminderEsign } from './reminders-harness.ts';
import { toAddress } from '../support/mail-parts.ts';

const SUBJECT = 'Please sign the lease';
const wait = { timeoutMs: 15_000, intervalMs: 20 };

/** "kind to@address" lines of every mail received, in arrival order. */
const received = (smtp: SmtpListener) => smtp.received.map((m) => `${m.subject ?? ''} -> ${toAddress(m)}`);
const signingLink = (m: ParsedMail, origin: string) => m.text?.split('\n').find((l) => l.startsWith(`${origin}/signing/`))?.trim();

async function mailsAtLeast(smtp: SmtpListener, n: number, what: string): Promise<string[]> {
  await pollUntil(() => smtp.received.length >= n, { ...wait, what });
  return received(smtp);
}

test('reminders, the expiry warning and expiry, driven by an injected clock, through the real server and a real SMTP peer', async (t) => {
  const smtp = await startSmtpListener(t);
  const { h, clock, call } = await startReminderEsign(t, smtp.url);
  const documentBase64 = await onePagePdf();
  const created = await call('POST', '', {
    emailSubject: SUBJECT,
    status: 'sent',
    documents: [{ documentId: '1', name: 'Lease.pdf', documentBase64 }],
    recipients: {
      signers: [
        { email: 'first@example.com', name: 'First', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } },
        { email: 'second@example.com', name: 'Second', recipientId: '2', routingOrder: '2', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '300' }] } },
      ],
      carbonCopies: [{ email: 'copy@example.com', name: 'Copy', recipientId: '3', routingOrder: '1' }],
    },
    // As the SDK sends it: strings. First reminder 2 days after receipt, then every 3 days;
    // expiry 10 days after sending, warned 3 days before.
    notification: { useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '3' }, expirations: { expireEnabled: 'true', expireAfter: '10', expireWarn: '3' } },
  });
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);
  const expected = { useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '2', reminderFrequency: '3' }, expirations: { expireEnabled: 'true', expireAfter: '10', expireWarn: '3' } };
  assert.deepEqual((await call('GET', `/${envelopeId}/notification`)).json(), expected);
  const got = (await call('GET', `/${envelopeId}`)).json();
  assert.deepEqual([got.notification, got.notificationUri], [expected, `/envelopes/${envelopeId}/notification`]);
  // The Envelope model's own expiry summary: expireDateTime is 10 days after sentDateTime.
  assert.deepEqual([got.expireEnabled, got.expireAfter], ['true', '10']);
  assert.equal(Date.parse(String(got.expireDateTime)) - Date.parse(String(got.sentDateTime)), 10 * DAY_S * 1000);

  assert.deepEqual((await mailsAtLeast(smtp, 2, 'the first mails')).sort(), [`${SUBJECT} -> copy@example.com`, `${SUBJECT} -> first@example.com`]);
  // The schedule is stored with the envelope: the first reminder is due 2 days after sending.
  const row = await h.store.db.kysely.selectFrom('envelope_notifications' as never).selectAll().executeTakeFirstOrThrow() as { next_due_at: string };
  const sentAt = Date.parse(String(got.sentDateTime));
  assert.equal(Date.parse(row.next_due_at) - sentAt, 2 * DAY_S * 1000);

  clock.advance(2 * DAY_S + 3600);
  assert.deepEqual((await mailsAtLeast(smtp, 3, 'the first reminder')).slice(2), [`Reminder: ${SUBJECT} -> first@example.com`]);
  const reminder = smtp.received[2] as ParsedMail;
  assert.match(reminder.text ?? '', /The envelope expires on /);
  const link = signingLink(reminder, h.origin);
  assert.ok(link, reminder.text);
  const page = await request(link);
  const pageText = await page.body.text();
  assert.equal(page.statusCode, 200);
  assert.match(pageText, /Sign here/, 'the reminder\'s fresh link opens the signing page');

  clock.advance(3 * DAY_S);
  assert.deepEqual((await mailsAtLeast(smtp, 4, 'the second reminder')).slice(3), [`Reminder: ${SUBJECT} -> first@example.com`]);

  // Day 7 + 1 h: the warning (3 days before expiry); the next reminder is due on day 8.
  clock.advance(2 * DAY_S);
  assert.deepEqual((await mailsAtLeast(smtp, 5, 'the expiration warning')).slice(4), [`Expires soon: ${SUBJECT} -> first@example.com`]);

  // Day 10 + 1 h, straight past day 8: expiry wins over the reminder that was due then. Both
  // reached recipients are told; the second signer never was reached.
  clock.advance(3 * DAY_S);
  const all = await mailsAtLeast(smtp, 7, 'the expiry notices');
  assert.deepEqual(all.slice(5).sort(), [`Voided: ${SUBJECT} -> copy@example.com`, `Voided: ${SUBJECT} -> first@example.com`]);
  const expired = (await call('GET', `/${envelopeId}`)).json();
  assert.deepEqual([expired.status, expired.voidedReason], ['voided', 'Envelope has expired.']);
  const after = await request(link);
  const afterText = await after.body.text();
  assert.doesNotMatch(afterText, /Sign here/, 'the signing link no longer signs');
  assert.match(afterText, /Envelope has expired\./);
  const audit = (await call('GET', `/${envelopeId}/audit_events`)).json() as { auditEvents: { eventFields: { name: string; value: string }[] }[] };
  const messages = audit.auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Message')?.value ?? '');
  assert.ok(messages.some((m) => m.startsWith('Envelope has expired.')), messages.join('\n'));
  assert.equal(messages.filter((m) => m.startsWith('Reminder sent to First')).length, 2);

  // A voided envelope is final: no more settings, subject changes or resends.
  for (const [method, path, body] of [['PUT', `/${envelopeId}/notification`, { reminders: { reminderEnabled: 'false' } }], ['PUT', `/${envelopeId}`, { emailSubject: 'New' }], ['PUT', `/${envelopeId}?resend_envelope=true`, {}]] as const) {
    const refused = await call(method, path, body);
    assert.deepEqual([refused.status, refused.json().errorCode], [400, 'ENVELOPE_INVALID_STATUS'], refused.text);
  }
  assert.equal(smtp.received.length, 7, received(smtp).join('\n'));
});

test('resend_envelope=true resends the pending signers\' mail (with a corrected subject); bad notification settings are refused', async (t) => {
  const smtp = await startSmtpListener(t);
  const { h, call } = await startReminderEsign(t, smtp.url);
  const documentBase64 = await onePagePdf();
  const definition = (notification: unknown) => ({
    emailSubject: 'Original subject', status: 'sent',
    documents: [{ documentId: '1', name: 'A.pdf', documentBase64 }],
    recipients: { signers: [{ email: 'signer@example.com', name: 'Signer', recipientId: '1' }, { email: 'kiosk@example.com', name: 'Kiosk', recipientId: '2', clientUserId: '42' }] },
    ...(notification === undefined ? {} : { notification }),
  });
  const bad = await call('POST', '', definition({ expirations: { expireEnabled: 'true', expireAfter: '5', expireWarn: '5' } }));
  assert.deepEqual(bad.json(), { errorCode: 'INVALID_REQUEST_PARAMETER', message: 'The request contained at least one invalid parameter. notification.expirations.expireWarn (5) must be less than expireAfter (5): the warning goes that many days before the envelope expires.' });
  const tooLong = await call('POST', '', definition({ expirations: { expireEnabled: 'true', expireAfter: '1000' } }));
  assert.deepEqual([tooLong.status, tooLong.json().errorCode], [400, 'INVALID_REQUEST_PARAMETER']);

  const created = await call('POST', '', definition(undefined));
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);
  // No notification: DocuSign's API defaults.
  assert.deepEqual((await call('GET', `/${envelopeId}/notification`)).json(), { useAccountDefaults: 'false', reminders: { reminderEnabled: 'false', reminderDelay: '0', reminderFrequency: '0' }, expirations: { expireEnabled: 'true', expireAfter: '120', expireWarn: '0' } });
  // The embedded signer is mailed nothing: the app shows them the envelope (recipient-kinds.ts isEmbedded).
  assert.deepEqual(await mailsAtLeast(smtp, 1, 'the first mail'), ['Original subject -> signer@example.com']);

  const corrected = await call('PUT', `/${envelopeId}?resend_envelope=true`, { emailSubject: 'Corrected subject', emailBlurb: 'Sorry, wrong title.' });
  assert.deepEqual([corrected.status, corrected.json()], [200, { envelopeId }]);
  // Resent to the signer with a mailed link only: an embedded signer signs through the app.
  assert.deepEqual(await mailsAtLeast(smtp, 2, 'the resent mail'), ['Original subject -> signer@example.com', 'Corrected subject -> signer@example.com']);
  const resent = smtp.received[1] as ParsedMail;
  assert.match(resent.text ?? '', /Sorry, wrong title\./);
  const first = signingLink(smtp.received.find((m) => toAddress(m) === 'signer@example.com') as ParsedMail, h.origin);
  const second = signingLink(resent, h.origin);
  assert.ok(first && second && first !== second, 'a fresh link');
  assert.equal((await call('GET', `/${envelopeId}`)).json().emailSubject, 'Corrected subject');
  // The outbox is delivered in order: both signer mails are in, so nothing was written for the kiosk.
  assert.equal(smtp.received.filter((m) => toAddress(m) === 'kiosk@example.com').length, 0);
});
