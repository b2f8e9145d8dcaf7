import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { FormClient } from '../support/form-client.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { toAddress } from '../support/mail-parts.ts';
import { b64, samplePdf } from './signing-harness.ts';

// A recipient's identity checks read back (wire/to-wire-recipient-authentication.ts, docs/esign-signing.md
// "Reading the checks back"): envelopes made as DocuSign's smsAuthentication, phoneAuthentication and
// accessCodeAuthentication examples make them (github docusign/code-examples-node, lib/eSignature/examples),
// then listed as its envelopeRecipients example lists them (listRecipients with no options). The checks
// come back in the shape they were set in; no code ever does. Sent back through updateRecipients as read,
// they change nothing; a different check is refused. Nothing of the examples is copied.
type Model = (new () => Record<string, unknown>) & { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type Callback = (e: unknown, d: unknown, r: unknown) => void;
type WireSigner = Record<string, unknown> & { recipientId: string; name: string; email: string };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown, cb: Callback): Promise<{ data: { envelopeId: string } }>;
    listRecipients(accountId: string, envelopeId: string, opts: null, cb: Callback): Promise<{ data: { signers: WireSigner[] } }>;
    getEnvelope(accountId: string, envelopeId: string, opts: Record<string, string>): Promise<{ recipients: { signers: WireSigner[] } }>;
    updateRecipients(accountId: string, envelopeId: string, opts: { recipients: unknown }): Promise<{ recipientUpdateResults: { recipientId: string; errorDetails?: unknown }[] }>;
  };
  AccountsApi: new (client: unknown) => {
    getAccountIdentityVerification(accountId: string, cb: Callback): Promise<{ data: { identityVerification: { workflowId: string; defaultName: string }[] } }>;
  };
} & Record<'EnvelopeDefinition' | 'Document' | 'Signer' | 'SignHere' | 'Tabs' | 'Recipients', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const noop: Callback = () => undefined;
const wait = { timeoutMs: 20_000, intervalMs: 20 };
const ACCESS_CODE = 'Blue-Heron-4417';

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function client() {
  const c = new docusign.ApiClient();
  c.setBasePath(`${env.h.origin}/restapi`);
  c.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return c;
}
const envelopes = async () => new docusign.EnvelopesApi(await client());

/** An envelope of one signer (a SignHere by position) with `checks` set on the signer, sent. */
async function sendWith(email: string, checks: Record<string, unknown>): Promise<string> {
  const definition = new docusign.EnvelopeDefinition();
  Object.assign(definition, { emailSubject: 'Please sign', status: 'sent' });
  const doc = new docusign.Document();
  Object.assign(doc, { documentBase64: pdf, documentId: '1', fileExtension: 'pdf', name: 'Lorem' });
  definition.documents = [doc];
  const tabs = docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ documentId: '1', pageNumber: '1', xPosition: '75', yPosition: '572' })] });
  const signer = docusign.Signer.constructFromObject({ email, name: 'Reed Back', recipientId: '1', routingOrder: '1', deliveryMethod: 'Email', tabs });
  // Set as the examples set them, after the model is made: its constructor would drop a key it does not know (`senderprovidednumbers`).
  Object.assign(signer, checks);
  // Assigned, as the examples assign them: constructFromObject would rebuild the signer.
  const recipients = new docusign.Recipients();
  recipients.signers = [signer];
  definition.recipients = recipients;
  return (await (await envelopes()).createEnvelope(env.seed.accountId, { envelopeDefinition: definition }, noop)).data.envelopeId;
}

/** The envelopeRecipients example's call. */
async function listedSigner(envelopeId: string): Promise<WireSigner> {
  const results = await (await envelopes()).listRecipients(env.seed.accountId, envelopeId, null, noop);
  return results.data.signers[0] ?? assert.fail('a signer');
}

/** The identity-check fields of a listed signer, and nothing else. */
const checksOf = (s: WireSigner): unknown => JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(s).filter(([k]) => ['accessCode', 'idCheckConfigurationName', 'requireIdLookup', 'smsAuthentication', 'phoneAuthentication', 'identityVerification'].includes(k)))));

async function workflowNamed(name: string): Promise<string> {
  const results = await new docusign.AccountsApi(await client()).getAccountIdentityVerification(env.seed.accountId, noop);
  return results.data.identityVerification.find((w) => w.defaultName === name)?.workflowId ?? assert.fail(name);
}

/**
 * Once the signer has `count` signing mails, exactly one of their links still works (a correction
 * revokes the earlier one), and its page still asks for the check before anything else. Mails of
 * one batch may reach the SMTP listener in either order, so the live link is found, not assumed
 * to be the last one received.
 */
async function stillGated(email: string, count = 1): Promise<void> {
  const mails = await pollUntil(() => {
    const signing = smtp.received.filter((m) => toAddress(m) === email && m.subject !== 'Your one-time passcode');
    return signing.length >= count ? signing : undefined;
  }, { ...wait, what: `${count} signing mail(s) to ${email}` });
  const pages = await Promise.all(mails.map(async (mail) => {
    const link = mail.text?.split('\n').find((l) => l.startsWith(`${env.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link');
    return (await new FormClient(env.h.origin).get(new URL(link).pathname)).text;
  }));
  const live = pages.filter((text) => !/This link is not valid/.test(text));
  assert.equal(live.length, 1, 'one live signing link');
  assert.match(live[0] ?? '', /Verify it is you|Enter your access code/);
  assert.doesNotMatch(live[0] ?? '', /data-tab-id/);
}

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('smsAuthentication example: the SMS check comes back as it was set, its number as the code goes to it', async () => {
  const envelopeId = await sendWith('sms-read@example.com', { smsAuthentication: { senderprovidednumbers: ['+1 415 555 0142'] }, idCheckConfigurationName: 'SMS Auth $', requireIdLookup: 'true' });
  const signer = await listedSigner(envelopeId);
  assert.deepEqual(checksOf(signer), { idCheckConfigurationName: 'SMS Auth $', requireIdLookup: 'true', smsAuthentication: { senderProvidedNumbers: ['+14155550142'] } });
  assert.deepEqual(checksOf((await (await envelopes()).getEnvelope(env.seed.accountId, envelopeId, { include: 'recipients' })).recipients.signers[0] ?? assert.fail('a signer')), checksOf(signer), 'getEnvelope says the same');
});

subtest('phoneAuthentication example: the "Phone Authentication" workflow comes back by id, its phone_number_list as given', async () => {
  const workflowId = await workflowNamed('Phone Authentication');
  const envelopeId = await sendWith('phone-read@example.com', { identityVerification: { workflowId, steps: null, inputOptions: [{ name: 'phone_number_list', valueType: 'PhoneNumberList', phoneNumberList: [{ countryCode: '1', code: '1', number: '4155550143' }] }], idCheckConfigurationName: '' } });
  assert.deepEqual(checksOf(await listedSigner(envelopeId)), { identityVerification: { workflowId, inputOptions: [{ name: 'phone_number_list', valueType: 'PhoneNumberList', phoneNumberList: [{ countryCode: '1', number: '4155550143' }] }] } });
});

subtest('phoneAuthentication.senderProvidedNumbers with "Phone Auth $", and the "Email Passcode" workflow', async () => {
  const phone = await sendWith('phone-check@example.com', { phoneAuthentication: { senderProvidedNumbers: ['+44 20 7946 0958'] }, idCheckConfigurationName: 'Phone Auth $', requireIdLookup: true });
  assert.deepEqual(checksOf(await listedSigner(phone)), { idCheckConfigurationName: 'Phone Auth $', requireIdLookup: 'true', phoneAuthentication: { recipMayProvideNumber: 'false', senderProvidedNumbers: ['+442079460958'] } });
  const workflowId = await workflowNamed('Email Passcode');
  const mail = await sendWith('mail-check@example.com', { identityVerification: { workflowId } });
  assert.deepEqual(checksOf(await listedSigner(mail)), { identityVerification: { workflowId } });
});

subtest('a check stored before its shape was kept (asked_as_json null) reads back in its method\'s usual shape', async () => {
  const sms = await sendWith('old-sms@example.com', { smsAuthentication: { senderProvidedNumbers: ['+14155550146'] }, idCheckConfigurationName: 'SMS Auth $' });
  const workflowId = await workflowNamed('Email Passcode');
  const mail = await sendWith('old-mail@example.com', { identityVerification: { workflowId } });
  await env.h.store.db.kysely.updateTable('recipient_passcodes').set({ asked_as_json: null }).where('envelope_id', 'in', [sms, mail]).execute();
  assert.deepEqual(checksOf(await listedSigner(sms)), { idCheckConfigurationName: 'SMS Auth $', requireIdLookup: 'true', smsAuthentication: { senderProvidedNumbers: ['+14155550146'] } });
  assert.deepEqual(checksOf(await listedSigner(mail)), { identityVerification: { workflowId } });
});

subtest('accessCodeAuthentication example: the access code is never answered, in any form, by listRecipients or getEnvelope', async () => {
  const envelopeId = await sendWith('code-read@example.com', { accessCode: ACCESS_CODE, smsAuthentication: null, requireIdLookup: 'false' });
  const signer = await listedSigner(envelopeId);
  assert.deepEqual(checksOf(signer), {});
  const everything = JSON.stringify([await env.call('GET', `/${envelopeId}/recipients?include_tabs=true&include_extended=true`), await env.call('GET', `/${envelopeId}?include=recipients,tabs,documents`)].map((r) => r.text));
  assert.doesNotMatch(everything, new RegExp(`${ACCESS_CODE}|accessCode`, 'i'));
  await stillGated('code-read@example.com');
});

subtest('sent back through updateRecipients as read, the checks change nothing and still hold; a different or a new check is refused by name', async () => {
  const envelopeId = await sendWith('round@example.com', { smsAuthentication: { senderProvidedNumbers: ['+1 415 555 0144'] }, idCheckConfigurationName: 'SMS Auth $', requireIdLookup: 'true', accessCode: ACCESS_CODE });
  const read = await listedSigner(envelopeId);
  const api = await envelopes();
  const answer = await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ ...read, name: 'Reed Again' }] } });
  assert.deepEqual(answer.recipientUpdateResults.map((r) => [r.recipientId, r.errorDetails]), [['1', undefined]]);
  const after = await listedSigner(envelopeId);
  assert.equal(after.name, 'Reed Again');
  assert.deepEqual(checksOf(after), checksOf(read));
  // The e-mail sent back counts as a corrected address (docs/esign-envelopes.md): a fresh link, as guarded as the first.
  await stillGated('round@example.com', 2);

  const refusal = async (signer: Record<string, unknown>) => {
    const err = await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [signer] } }).then(() => undefined, (e: { response?: { status: number; data: { errorCode: string; message: string } } }) => e.response);
    return [err?.status, err?.data.errorCode, err?.data.message];
  };
  assert.deepEqual(await refusal({ ...read, smsAuthentication: { senderProvidedNumbers: ['+1 415 555 0199'] } }), [400, 'INVALID_REQUEST_BODY', 'The request body is missing or improperly formatted. recipientId "1": a one-time passcode check cannot be changed through updateRecipients yet; send it back as listRecipients answers it, or leave it out.']);
  assert.deepEqual((await refusal({ recipientId: '1', idCheckConfigurationName: 'Phone Auth $', phoneAuthentication: { senderProvidedNumbers: ['+14155550144'] } }))[0], 400, 'another method, the same number');
  assert.deepEqual(checksOf(await listedSigner(envelopeId)), checksOf(read), 'unchanged');

  // A signer with no check: sending one is adding it, which updateRecipients does not do.
  const plain = await sendWith('plain@example.com', {});
  assert.deepEqual(checksOf(await listedSigner(plain)), {});
  assert.deepEqual(await sdkFailure(api.updateRecipients(env.seed.accountId, plain, { recipients: { signers: [{ recipientId: '1', smsAuthentication: { senderProvidedNumbers: ['+14155550145'] }, idCheckConfigurationName: 'SMS Auth $' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(checksOf(await listedSigner(plain)), {});
});

test('identity checks read back through the docusign-esign SDK', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url, { textSender: { send: () => Promise.resolve() } });
  pdf = b64(await samplePdf(1, 'Lorem'));
  for (const [name, body] of subtests) await t.test(name, body);
});
