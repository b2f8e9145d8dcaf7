import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Envelope, Recipient } from '../domain/envelope/envelope.ts';
import { API_DEFAULT_SETTINGS } from '../domain/notification/envelope-notification.ts';
import { buildNotificationMails } from './notification-mails.ts';

const EVIL = '<script>alert("x")</script> & \'quotes\'';
const AT = new Date('2026-03-01T10:00:00.000Z');

const signer: Recipient = { recipientId: '1', recipientIdGuid: 'g1', type: 'signer', email: 's@example.com', name: EVIL, routingOrder: 1, status: 'sent', sentAt: AT, tabs: [] };
const envelope: Envelope = {
  envelopeId: 'e1', accountId: 'a1', senderUserId: 'u1', status: 'sent', emailSubject: `${EVIL}\r\nBcc: victim@example.com`, emailBlurb: `Please sign.\n${EVIL}`, createdAt: AT, statusChangedAt: AT, sentAt: AT,
  documents: [{ documentId: '1', name: EVIL, fileExtension: 'pdf', pageCount: 1, order: 1, sha256: '00' }], recipients: [signer], version: 1,
  notification: { settings: { ...API_DEFAULT_SETTINGS, expireAfterDays: 10 }, reminded: {} },
};
const mails = buildNotificationMails('https://esign.test');
const expiry = new Date('2026-03-11T10:00:00.000Z');

test('reminder, warning and expiry mails: subject, message, names and document names are escaped; no header injection', () => {
  for (const mail of [mails.reminder(envelope, signer, 'tok_1', expiry), mails.expirationWarning(envelope, signer, 'tok_2', expiry), mails.expired(envelope, signer)]) {
    assert.ok(!mail.html.includes('<script>'), mail.kind);
    assert.ok(mail.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;'), mail.kind);
    assert.ok(!/[\r\n]/.test(mail.subject), `${mail.kind}: ${JSON.stringify(mail.subject)}`);
    assert.equal(mail.to.email, 's@example.com');
  }
});

test('a reminder repeats the sender\'s current message and carries its own single-purpose link and the expiry date', () => {
  const reminder = mails.reminder(envelope, signer, 'tok_1', expiry);
  assert.ok(reminder.subject.startsWith('Reminder: '));
  assert.ok(reminder.text.includes('Please sign.'), 'the message (emailBlurb) is in the reminder');
  assert.ok(reminder.html.includes('Please sign.'));
  assert.ok(reminder.text.split('\n').includes('https://esign.test/signing/tok_1'), reminder.text);
  assert.match(reminder.text, /expires on March 11, 2026/);
  const warning = mails.expirationWarning(envelope, signer, 'tok_2', expiry);
  assert.ok(warning.text.split('\n').includes('https://esign.test/signing/tok_2'));
  // The expiry notice has nothing left to sign: no link at all.
  assert.ok(!/https?:\/\//.test(mails.expired(envelope, signer).text));
});
