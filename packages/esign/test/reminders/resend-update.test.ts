import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';
import { onePagePdf, startReminderEsign } from './reminders-harness.ts';

test('PUT …?resend_envelope=true is one change with the call\'s new subject: refused on a draft without changing it; sending a draft with it mails once', async (t) => {
  const smtp = await startSmtpListener(t);
  const { h, call } = await startReminderEsign(t, smtp.url);
  const created = await call('POST', '', {
    emailSubject: 'Draft subject', status: 'created',
    documents: [{ documentId: '1', name: 'A.pdf', documentBase64: await onePagePdf() }],
    recipients: { signers: [{ email: 'signer@example.com', name: 'Signer', recipientId: '1' }] },
  });
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);

  // A draft has nobody to resend to: refused, and the subject of the same call is not applied.
  const refused = await call('PUT', `/${envelopeId}?resend_envelope=true`, { emailSubject: 'Half applied?' });
  assert.deepEqual([refused.status, refused.json().errorCode], [400, 'ENVELOPE_INVALID_STATUS'], refused.text);
  assert.equal((await call('GET', `/${envelopeId}`)).json().emailSubject, 'Draft subject');

  // Sending the draft with resend_envelope=true: the send is the mail, once (rows are written in
  // the change's transaction, so the outbox is final when the call answers).
  const sent = await call('PUT', `/${envelopeId}?resend_envelope=true`, { status: 'sent', emailSubject: 'Final subject' });
  assert.deepEqual([sent.status, sent.json()], [200, { envelopeId }]);
  const rows = (await new OutboxRepository(h.store.db).list()).filter((m) => m.envelope_id === envelopeId);
  assert.deepEqual(rows.map((m) => `${m.kind} -> ${m.recipient_email}`), ['envelope-sent -> signer@example.com']);
  const envelope = (await call('GET', `/${envelopeId}`)).json();
  assert.deepEqual([envelope.status, envelope.emailSubject], ['sent', 'Final subject']);
});
