import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { toAddress } from '../support/mail-parts.ts';
import { secondAccount } from '../support/second-account.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';

// EnvelopesApi.createRecipient (DocuSign "EnvelopeRecipients: create") through the official SDK,
// with a real SMTP listener: recipients added to a draft and to an envelope in process. As
// DocuSign documents, a new recipient at or before the routing order in progress is mailed only
// with resend_envelope=true; a later one when routing reaches them.
type Listed = { signers: Record<string, string>[]; carbonCopies: Record<string, string>[] };
type Api = {
  createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
  createRecipient(accountId: string, envelopeId: string, opts: unknown): Promise<Listed>;
  listRecipients(accountId: string, envelopeId: string): Promise<Listed>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => Api };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 30_000, intervalMs: 25 };

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function sdk(token?: string): Promise<Api> {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token ?? (await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

const signHere = { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] };
const envelope = (tag: string, status: string, recipients: unknown) => ({ emailSubject: `Added ${tag}`, status, documents: [{ documentId: '1', name: 'A.pdf', fileExtension: 'pdf', documentBase64: pdf }], recipients });
const outboxKinds = async (address: string, envelopeId: string) =>
  (await new OutboxRepository(env.h.store.db).list()).filter((m) => m.recipient_email === address && m.envelope_id === envelopeId).map((m) => m.kind);

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('in process: a signer added to the order in progress is mailed with resend_envelope=true, not without it; a later one waits for routing; each is listed with its tabs', async () => {
  const api = await sdk();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: envelope('a', 'sent', { signers: [{ email: 'first-a@example.com', name: 'First', recipientId: '1', routingOrder: '1', tabs: signHere }] }) });
  await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'first-a@example.com'), { ...wait, what: 'the first signer\'s mail' });

  const resent = await api.createRecipient(env.seed.accountId, envelopeId, { resendEnvelope: 'true', recipients: { signers: [{ email: 'now-a@example.com', name: 'Now', recipientId: '2', routingOrder: '1', tabs: signHere }] } });
  assert.deepEqual(resent.signers.map((s) => [s.recipientId, s.status, s.email]), [['2', 'sent', 'now-a@example.com']]);
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'now-a@example.com'), { ...wait, what: 'the added signer\'s mail' });
  assert.match(mail.text ?? '', /\/signing\//, 'with a signing link');

  const quiet = await api.createRecipient(env.seed.accountId, envelopeId, { recipients: { signers: [{ email: 'quiet-a@example.com', name: 'Quiet', recipientId: '3', routingOrder: '1', tabs: signHere }] } });
  assert.deepEqual(quiet.signers.map((s) => [s.recipientId, s.status]), [['3', 'sent']]);
  const later = await api.createRecipient(env.seed.accountId, envelopeId, { recipients: { carbonCopies: [{ email: 'later-a@example.com', name: 'Later', recipientId: '4', routingOrder: '2' }] } });
  assert.deepEqual(later.carbonCopies.map((s) => [s.recipientId, s.status]), [['4', 'created']]);
  // Each add is one transaction with its mails: what is in the outbox now is all there is.
  assert.deepEqual(await outboxKinds('quiet-a@example.com', envelopeId), [], 'without resend_envelope, no mail');
  assert.deepEqual(await outboxKinds('later-a@example.com', envelopeId), [], 'a later order is mailed when reached');
  assert.deepEqual(await outboxKinds('now-a@example.com', envelopeId), ['envelope-sent']);

  const listed = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.deepEqual(listed.signers.map((s) => s.recipientId), ['1', '2', '3']);
  assert.deepEqual(listed.carbonCopies.map((s) => s.recipientId), ['4']);
  const tabs = (await env.call('GET', `/${envelopeId}/recipients/3/tabs`)).json() as { signHereTabs: { pageNumber: string }[] };
  assert.deepEqual(tabs.signHereTabs.map((t) => t.pageNumber), ['1'], 'the new signer\'s tabs are placed');
  const audit = (await env.call('GET', `/${envelopeId}/audit_events`)).text;
  assert.match(audit, /Recipient 3 \(Quiet <quiet-a@example\.com>\) added by the sender/);
});

subtest('a draft takes new recipients and mails nobody; a duplicate recipientId or a refused field is a 400 with nothing added', async () => {
  const api = await sdk();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: envelope('b', 'created', { signers: [{ email: 'one-b@example.com', name: 'One', recipientId: '1', tabs: signHere }] }) });
  const added = await api.createRecipient(env.seed.accountId, envelopeId, { recipients: { carbonCopies: [{ email: 'cc-b@example.com', name: 'Copy', recipientId: '2' }] } });
  assert.deepEqual(added.carbonCopies.map((c) => [c.recipientId, c.status]), [['2', 'created']]);
  assert.deepEqual(await sdkFailure(api.createRecipient(env.seed.accountId, envelopeId, { recipients: { signers: [{ email: 'dup-b@example.com', name: 'Dup', recipientId: '1' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.createRecipient(env.seed.accountId, envelopeId, { recipients: { signers: [{ email: 'n-b@example.com', name: 'N', recipientId: '5', note: 'hello' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.createRecipient(env.seed.accountId, envelopeId, { recipients: { seals: [{ recipientId: '6' }] } })), [400, 'INVALID_REQUEST_BODY']);
  const listed = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.deepEqual([...listed.signers, ...listed.carbonCopies].map((r) => r.recipientId), ['1', '2']);
  assert.deepEqual(await outboxKinds('cc-b@example.com', envelopeId), []);
});

subtest('attacks: another account\'s envelope is ENVELOPE_DOES_NOT_EXIST; a completed envelope is ENVELOPE_INVALID_STATUS; nothing is added', async () => {
  const api = await sdk();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: envelope('c', 'sent', { signers: [{ email: 'one-c@example.com', name: 'One', recipientId: '1', tabs: signHere }] }) });
  const other = await secondAccount(env.h);
  const theirs = await sdk(other.token);
  const attacker = { recipients: { signers: [{ email: 'attacker@example.com', name: 'Mallory', recipientId: '9', routingOrder: '1' }] }, resendEnvelope: 'true' };
  assert.deepEqual(await sdkFailure(theirs.createRecipient(other.accountId, envelopeId, attacker)), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  const [status] = await sdkFailure(theirs.createRecipient(env.seed.accountId, envelopeId, attacker));
  assert.ok(status === 401 || status === 403 || status === 400, `their token on our account path is refused (${status})`);
  assert.deepEqual((await api.listRecipients(env.seed.accountId, envelopeId)).signers.map((s) => s.recipientId), ['1']);

  // A carbon copy only: signed as soon as it is sent, then completed by the completion worker.
  const done = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: envelope('d', 'sent', { carbonCopies: [{ email: 'cc-d@example.com', name: 'Copy', recipientId: '1' }] }) });
  await pollUntil(async () => ((await api.getEnvelope(env.seed.accountId, done.envelopeId)).status === 'completed' ? true : undefined), { ...wait, what: 'completion' });
  assert.deepEqual(await sdkFailure(api.createRecipient(env.seed.accountId, done.envelopeId, attacker)), [400, 'ENVELOPE_INVALID_STATUS']);
  assert.equal(smtp.received.some((m) => toAddress(m) === 'attacker@example.com'), false);
  assert.equal((await new OutboxRepository(env.h.store.db).list()).some((m) => m.recipient_email === 'attacker@example.com'), false);
});

test('createRecipient (EnvelopeRecipients: create)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Added'));
  for (const [name, body] of subtests) await t.test(name, body);
});
