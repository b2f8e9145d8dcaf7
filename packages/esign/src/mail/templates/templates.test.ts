import assert from 'node:assert/strict';
import { test } from 'node:test';
import { envelopeCompletedMail, MAX_ATTACHMENT_BYTES } from './envelope-completed-mail.ts';
import { envelopeReminderMail } from './envelope-reminder-mail.ts';
import { envelopeSentMail } from './envelope-sent-mail.ts';
import { envelopeVoidedMail } from './envelope-voided-mail.ts';

const EVIL = '<script>alert("x")</script> & \'quotes\'';

test('the sent mail carries the signing link as a plain https URL on its own line', () => {
  const url = 'https://localhost:8443/signing/abc_DEF-123';
  const mail = envelopeSentMail({ envelopeId: 'e1', to: { email: 'sam@example.com', name: 'Sam' }, emailSubject: 'Please sign', documentNames: ['NDA'], signingUrl: url });
  assert.ok(mail.text.split('\n').includes(url));
  assert.ok(mail.html.includes(`href="${url}"`));
  assert.equal(mail.subject, 'Please sign');
  assert.equal(mail.kind, 'envelope-sent');
});

test('every user-provided value is escaped in the HTML part', () => {
  const mail = envelopeSentMail({ envelopeId: 'e1', to: { email: 'a@example.com', name: EVIL }, emailSubject: EVIL, emailBlurb: EVIL, documentNames: [EVIL], signingUrl: 'https://x.test/signing/t' });
  assert.ok(!mail.html.includes('<script>'));
  assert.ok(mail.html.includes('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;'));
  const voided = envelopeVoidedMail({ envelopeId: 'e1', to: { email: 'a@example.com', name: 'A' }, emailSubject: EVIL, voidedReason: EVIL });
  assert.ok(!voided.html.includes('<script>'));
  assert.ok(voided.text.includes(`Reason: ${EVIL}`));
});

test('a subject never carries a line break into the header', () => {
  const mail = envelopeSentMail({ envelopeId: 'e1', to: { email: 'a@example.com', name: 'A' }, emailSubject: 'Hi\r\nBcc: victim@example.com', documentNames: [] });
  assert.equal(mail.subject, 'Hi Bcc: victim@example.com');
});

test('a certified delivery is asked to view and acknowledge, first and in reminders, never to sign', () => {
  const url = 'https://localhost:8443/signing/cd';
  const sent = envelopeSentMail({ envelopeId: 'e1', to: { email: 'cd@example.com', name: 'Cal' }, emailSubject: 'S', documentNames: ['A'], signingUrl: url, acknowledgeOnly: true });
  const reminder = envelopeReminderMail({ envelopeId: 'e1', to: { email: 'cd@example.com', name: 'Cal' }, emailSubject: 'S', documentNames: ['A'], signingUrl: url, expiresAt: new Date('2026-12-01T00:00:00Z'), acknowledgeOnly: true });
  for (const mail of [sent, reminder]) {
    assert.ok(mail.text.split('\n').includes(url));
    assert.match(mail.text, /acknowledge/);
    assert.doesNotMatch(`${mail.text}${mail.html}`, /sign(ature)?\b/i);
    assert.match(mail.html, /Review and acknowledge/);
  }
});

test('carbon copies get no signing link', () => {
  const mail = envelopeSentMail({ envelopeId: 'e1', to: { email: 'cc@example.com', name: 'Casey' }, emailSubject: 'S', documentNames: ['A'] });
  assert.ok(!/https?:\/\//.test(mail.text));
  assert.ok(mail.text.includes('for your information'));
});

test('the completed mail attaches the PDF up to 5 MB and links to it above', () => {
  const base = { envelopeId: 'e1', to: { email: 'a@example.com', name: 'A' }, emailSubject: 'S', downloadUrl: 'https://x.test/d/1' };
  const small = envelopeCompletedMail({ ...base, pdf: { filename: 'S.pdf', bytes: new Uint8Array([37, 80, 68, 70]) } });
  assert.equal(small.attachments?.length, 1);
  assert.equal(small.attachments?.[0]?.contentBase64, 'JVBERg==');
  assert.ok(!small.text.includes('https://x.test/d/1'));
  const large = envelopeCompletedMail({ ...base, pdf: { filename: 'S.pdf', bytes: new Uint8Array(MAX_ATTACHMENT_BYTES + 1) } });
  assert.equal(large.attachments, undefined);
  assert.ok(large.text.split('\n').includes('https://x.test/d/1'));
});
