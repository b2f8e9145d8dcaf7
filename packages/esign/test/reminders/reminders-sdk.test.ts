import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { startSmtpListener } from '../support/smtp-listener.ts';
import { DAY_S, onePagePdf, startReminderEsign } from './reminders-harness.ts';

// The official SDK, unmodified (CommonJS, no typings): only the parts this test calls are typed.
type WireNotification = { useAccountDefaults?: string; reminders?: Record<string, string>; expirations?: Record<string, string> };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  getNotificationSettings(accountId: string, envelopeId: string): Promise<WireNotification>;
  updateNotificationSettings(accountId: string, envelopeId: string, opts: { envelopeNotificationRequest: unknown }): Promise<WireNotification>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ notification?: WireNotification; notificationUri?: string }>;
};
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => EnvelopesApi;
  Notification: { constructFromObject(data: unknown): unknown };
  EnvelopeNotificationRequest: { constructFromObject(data: unknown): unknown };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
/** The SDK's model instances as plain JSON (what the wire carried). */
const plain = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

test('the docusign-esign SDK sets notification at create and changes a sent envelope\'s schedule with updateNotificationSettings', async (t) => {
  const smtp = await startSmtpListener(t);
  const { h, seed, clock, token } = await startReminderEsign(t, smtp.url);
  const api = async () => {
    const client = new docusign.ApiClient();
    client.setBasePath(`${h.origin}/restapi`);
    client.addDefaultHeader('Authorization', `Bearer ${(await token()).access_token}`);
    return new docusign.EnvelopesApi(client);
  };
  const envelopes = await api();
  const { envelopeId } = await envelopes.createEnvelope(seed.accountId, { envelopeDefinition: {
    emailSubject: 'SDK lease', status: 'sent',
    documents: [{ documentBase64: await onePagePdf(), documentId: '1', fileExtension: 'pdf', name: 'Lease' }],
    recipients: { signers: [{ email: 'sdk-signer@example.com', name: 'Sam', recipientId: '1', routingOrder: '1' }] },
    // The SDK's own model: it turns every value into a string.
    notification: docusign.Notification.constructFromObject({ useAccountDefaults: false, reminders: { reminderEnabled: true, reminderDelay: 5, reminderFrequency: 5 }, expirations: { expireEnabled: true, expireAfter: 30, expireWarn: 0 } }),
  } });
  assert.deepEqual(plain(await envelopes.getNotificationSettings(seed.accountId, envelopeId)), {
    useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '5', reminderFrequency: '5' }, expirations: { expireEnabled: 'true', expireAfter: '30', expireWarn: '0' },
  });
  await pollUntil(() => smtp.received.length >= 1, { timeoutMs: 15_000, what: 'the signing mail' });

  // The envelope is sent: bring the first reminder forward to day 1 and expiry to day 3.
  const updated = await envelopes.updateNotificationSettings(seed.accountId, envelopeId, { envelopeNotificationRequest: docusign.EnvelopeNotificationRequest.constructFromObject({ reminders: { reminderDelay: '1' }, expirations: { expireAfter: '3' } }) });
  const expected = { useAccountDefaults: 'false', reminders: { reminderEnabled: 'true', reminderDelay: '1', reminderFrequency: '5' }, expirations: { expireEnabled: 'true', expireAfter: '3', expireWarn: '0' } };
  assert.deepEqual(plain(updated), expected);
  const envelope = await envelopes.getEnvelope(seed.accountId, envelopeId);
  assert.deepEqual(plain([envelope.notification, envelope.notificationUri]), [expected, `/envelopes/${envelopeId}/notification`]);

  clock.advance(DAY_S + 60);
  const reminder = await pollUntil(() => smtp.received[1], { timeoutMs: 15_000, what: 'the reminder the update brought forward' });
  assert.equal(reminder.subject, 'Reminder: SDK lease');

  // An expiry already over is refused with DocuSign's error shape (the SDK rejects with the AxiosError).
  const later = await api();
  await assert.rejects(later.updateNotificationSettings(seed.accountId, envelopeId, { envelopeNotificationRequest: { expirations: { expireAfter: '1' } } }), (err: { response?: { status: number; data: { errorCode: string } } }) => {
    assert.deepEqual([err.response?.status, err.response?.data.errorCode], [400, 'INVALID_REQUEST_PARAMETER']);
    return true;
  });
  assert.equal(smtp.received.length, 2);
});
