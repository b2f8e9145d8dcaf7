import assert from 'node:assert/strict';
import { test } from 'node:test';
import { envelopeDeclinedMail } from './envelope-declined-mail.ts';

test('the declined mail names the signer and the reason, escaped in HTML, one-line subject', () => {
  const mail = envelopeDeclinedMail({ envelopeId: 'e1', to: { email: 'sender@example.com', name: 'Sender' }, emailSubject: 'Lease\r\nBcc: x@evil.test', signer: { name: '<b>Dee</b>', email: 'dee@example.com' }, reason: 'Wrong <amount>' });
  assert.equal(mail.subject, 'Declined: Lease Bcc: x@evil.test');
  assert.match(mail.text, /Reason: Wrong <amount>/);
  assert.ok(mail.html.includes('Wrong &lt;amount&gt;') && mail.html.includes('&lt;b&gt;Dee&lt;/b&gt;'));
  assert.equal(mail.kind, 'envelope-declined');
});
