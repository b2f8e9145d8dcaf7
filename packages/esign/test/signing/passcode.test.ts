import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { launchChromium, pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { MAX_PASSCODE_FAILURES, PASSCODE_TTL_MS } from '../../src/domain/signing/passcode.ts';
import type { TextMessage } from '../../src/mail/text-sender.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { FormClient, hiddenField, type Answer } from '../support/form-client.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { toAddress } from '../support/mail-parts.ts';

// DocuSign's smsAuthentication and phoneAuthentication examples (github docusign/code-examples-node,
// lib/eSignature/examples) build their envelopes as below, property for property (their own
// base64 PDF replaced by ours); the phone example first looks up the account's "Phone
// Authentication" workflow with AccountsApi.getAccountIdentityVerification. Every method is
// tried wrong first, and the lockout is seen.
type Model = new () => Record<string, unknown>;
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown, cb: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: { envelopeId: string } }>;
    update(accountId: string, envelopeId: string, opts: unknown): Promise<unknown>;
  };
  AccountsApi: new (client: unknown) => {
    getAccountIdentityVerification(accountId: string, cb: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: { identityVerification: { workflowId: string; defaultName: string }[] } }>;
  };
  Signer: Model & { constructFromObject(o: unknown): Record<string, unknown> };
  SignHere: Model & { constructFromObject(o: unknown): Record<string, unknown> };
  Tabs: Model & { constructFromObject(o: unknown): Record<string, unknown> };
  Recipients: Model & { constructFromObject(o: unknown): Record<string, unknown> };
} & Record<'EnvelopeDefinition' | 'Document', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 20_000, intervalMs: 20 };
const PHONE = '+1 415 555 0142';

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;
/** What the test's text sender was handed; `failNext` makes the next send fail, as a provider outage would. */
const texts: TextMessage[] = [];
let failNext = false;

async function client() {
  const c = new docusign.ApiClient();
  c.setBasePath(`${env.h.origin}/restapi`);
  c.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return c;
}

/** smsAuthentication's makeEnvelope. */
function smsEnvelope(signerEmail: string, signerName: string) {
  const env1 = new docusign.EnvelopeDefinition();
  env1.emailSubject = 'Please sign';
  env1.emailBlurb = 'Sample text for email body';
  env1.Status = 'Sent';
  const doc1 = new docusign.Document();
  doc1.DocumentBase64 = pdf;
  doc1.DocumentId = '1';
  doc1.FileExtension = 'pdf';
  doc1.Name = 'Lorem';
  env1.documents = [doc1];
  const signHere1 = new docusign.SignHere();
  signHere1.Name = 'SignHereTab';
  signHere1.XPosition = '75';
  signHere1.YPosition = '572';
  signHere1.TabLabel = 'SignHereTab';
  signHere1.PageNumber = '1';
  signHere1.DocumentId = '1';
  const signer1Tabs = new docusign.Tabs();
  signer1Tabs.signHereTabs = [signHere1];
  const signer1 = new docusign.Signer();
  signer1.Name = signerName;
  signer1.Email = signerEmail;
  signer1.RoutingOrder = '1';
  signer1.Status = 'Created';
  signer1.DeliveryMethod = 'Email';
  signer1.RecipientId = '1';
  signer1.Tabs = signer1Tabs;
  signer1.smsAuthentication = { senderprovidednumbers: [PHONE] };
  signer1.idCheckConfigurationName = 'SMS Auth $';
  signer1.requireIdLookup = 'true';
  signer1.recipMayProvideNumber = 'true';
  const recipients = new docusign.Recipients();
  recipients.Signers = [signer1];
  env1.recipients = recipients;
  return env1;
}

/** phoneAuthentication's makeEnvelope, with the workflow id it looked up. */
function phoneEnvelope(signerEmail: string, signerName: string, workflowId: string, countryCode: string, phoneNumber: string) {
  const env1 = new docusign.EnvelopeDefinition();
  env1.emailSubject = 'Please sign';
  env1.emailBlurb = 'Sample text for email body';
  env1.status = 'Sent';
  const doc1 = new docusign.Document();
  doc1.documentBase64 = pdf;
  doc1.name = 'Lorem';
  doc1.fileExtension = 'pdf';
  doc1.documentId = '1';
  env1.documents = [doc1];
  const signHere1 = docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' });
  const signer1Tabs = docusign.Tabs.constructFromObject({ signHereTabs: [signHere1] });
  const signer1 = docusign.Signer.constructFromObject({
    email: signerEmail,
    name: signerName,
    recipientId: '1',
    routingOrder: '1',
    deliveryMethod: 'Email',
    tabs: signer1Tabs,
    identityVerification: { workflowId, steps: null, inputOptions: [{ name: 'phone_number_list', valueType: 'PhoneNumberList', phoneNumberList: [{ countryCode, code: '1', number: phoneNumber }] }], idCheckConfigurationName: '' },
  });
  env1.recipients = docusign.Recipients.constructFromObject({ signers: [signer1] });
  return env1;
}

async function workflowNamed(name: string): Promise<string | null> {
  const results = await new docusign.AccountsApi(await client()).getAccountIdentityVerification(env.seed.accountId, () => undefined);
  let workflowId: string | null = null;
  results.data.identityVerification.forEach((workflow) => {
    if (workflow.defaultName === name) workflowId = workflow.workflowId;
  });
  return workflowId;
}

async function create(definition: unknown, email: string): Promise<{ envelopeId: string; link: string }> {
  const { envelopeId } = (await new docusign.EnvelopesApi(await client()).createEnvelope(env.seed.accountId, { envelopeDefinition: definition }, () => undefined)).data;
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === email && m.subject !== 'Your one-time passcode'), { ...wait, what: `the mail to ${email}` });
  const link = mail.text?.split('\n').find((l) => l.startsWith(`${env.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link');
  return { envelopeId, link: new URL(link).pathname };
}

/** Presses one of the page's send buttons (by its label); the code is what the sender was handed. */
async function sendCode(browser: FormClient, link: string, page: string, button: RegExp): Promise<Answer> {
  const form = [...page.matchAll(/<form method="post" action="[^"]*\/passcode\/send"[^>]*>([\s\S]*?)<\/form>/g)].find((m) => button.test(m[1] ?? ''))?.[1] ?? assert.fail(`a button ${button} on ${page}`);
  return browser.post(`${link}/passcode/send`, { _csrf: hiddenField(page, '_csrf'), destination: hiddenField(form, 'destination'), channel: hiddenField(form, 'channel') });
}
const lastCode = (to: string) => /passcode is (\d{6})/.exec(texts.filter((t) => t.to === to).at(-1)?.body ?? '')?.[1] ?? assert.fail(`a code sent to ${to}`);
const tryCode = (browser: FormClient, link: string, page: string, code: string) => browser.post(`${link}/passcode`, { _csrf: hiddenField(page, '_csrf'), passcode: code });
const wrongOf = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

async function auditActions(envelopeId: string): Promise<(string | undefined)[]> {
  const audit = await env.call('GET', `/${envelopeId}/audit_events`);
  return (audit.json() as { auditEvents: { eventFields: { name: string; value: string }[] }[] }).auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value);
}

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('SMS (smsAuthentication example): nothing shows before the passcode; a wrong one is counted, the right one opens the page for this browser, once', async () => {
  const { envelopeId, link } = await create(smsEnvelope('sms@example.com', 'Sam Sms'), 'sms@example.com');
  const browser = new FormClient(env.h.origin);
  const gate = await browser.get(link);
  assert.equal(gate.status, 200);
  assert.match(gate.text, /Verify it is you/);
  assert.match(gate.text, /Text a code to ••• ••42/, 'the number, masked');
  assert.doesNotMatch(gate.text, /415|\/documents\/|data-tab-id|name="passcode"/, 'no number, page image, tab, or code field before a code is sent');
  for (const [method, path, form] of [['GET', '/documents/1/pages/1', undefined], ['POST', '/finish', { signatureKind: 'typed', signatureText: 'S', signedTabs: '' }], ['POST', '/decline', { reason: 'no' }], ['GET', '/download', undefined]] as const) {
    const res = method === 'GET' ? await browser.get(`${link}${path}`) : await browser.post(`${link}${path}`, { _csrf: hiddenField(gate.text, '_csrf'), ...form });
    assert.equal(res.status, 403, `${method} ${path} before the passcode`);
  }
  // A code typed before any was sent: not counted, nothing to guess against.
  const early = await tryCode(browser, link, gate.text, '123456');
  assert.equal(early.status, 400);
  assert.match(early.text, /No passcode is waiting/);

  // A provider outage: the signer is told and may ask again.
  failNext = true;
  const failed = await sendCode(browser, link, gate.text, /Text a code/);
  assert.equal(failed.status, 502);
  assert.match(failed.text, /could not be sent/);
  const sent = await sendCode(browser, link, failed.text, /Text a code/);
  assert.equal(sent.status, 200, sent.text);
  assert.match(sent.text, /name="passcode"/);
  const last = texts.at(-1);
  assert.equal(last?.channel, 'sms');
  assert.equal(last?.to, '+14155550142', 'to the number the sender gave, digits kept');
  const code = lastCode('+14155550142');

  const wrong = await tryCode(browser, link, sent.text, wrongOf(code));
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, new RegExp(`not correct. ${MAX_PASSCODE_FAILURES - 1} tries are left`));
  const right = await tryCode(browser, link, wrong.text, code);
  assert.equal(right.status, 303, right.text);
  const page = await browser.get(link);
  assert.match(page.text, /data-tab-id/, 'the ceremony, once the passcode is right');
  assert.equal((await browser.get(`${link}/documents/1/pages/1`)).status, 200);

  // The same code in another browser (the link forwarded): used up, so it fails.
  const other = new FormClient(env.h.origin);
  const otherGate = await other.get(link);
  assert.match(otherGate.text, /Verify it is you/);
  const reused = await tryCode(other, link, otherGate.text, code);
  assert.equal(reused.status, 400);
  assert.match(reused.text, /No passcode is waiting/);

  const finish = await drawnSignatureFinish(browser, link);
  assert.equal((await finish(makeSignaturePng(600, 200))).status, 303);
  const actions = (await auditActions(envelopeId)).filter((a) => a?.startsWith('Passcode'));
  assert.deepEqual(actions, ['Passcode Sent', 'Passcode Sent', 'Passcode Failed', 'Passcode Passed']);
  const row = await env.h.store.db.kysely.selectFrom('recipient_passcodes').selectAll().where('envelope_id', '=', envelopeId).executeTakeFirstOrThrow();
  assert.equal(row.code_hash, null, 'the used code is gone');
});

subtest(`phone (phoneAuthentication example): the "Phone Authentication" workflow; after ${MAX_PASSCODE_FAILURES} wrong passcodes the signer is locked out, even with the right one, until the sender resends`, async () => {
  const workflowId = await workflowNamed('Phone Authentication');
  assert.ok(workflowId, 'the account offers phone authentication');
  assert.equal(await workflowNamed('DocuSign ID Verification'), null, 'ID verification is not offered (the idvAuthentication example stops there)');
  const { envelopeId, link } = await create(phoneEnvelope('phone@example.com', 'Pat Phone', workflowId, '1', '4155550199'), 'phone@example.com');
  const browser = new FormClient(env.h.origin);
  let page = (await browser.get(link)).text;
  assert.match(page, /Call ••• ••99 with a code/);
  assert.match(page, /Text a code to ••• ••99/);
  const called = await sendCode(browser, link, page, /Call/);
  assert.equal(called.status, 200);
  assert.equal(texts.at(-1)?.channel, 'voice');
  const code = lastCode('+14155550199');
  page = called.text;
  for (let i = 1; i <= MAX_PASSCODE_FAILURES; i++) {
    const answer = await tryCode(browser, link, page, wrongOf(code));
    assert.equal(answer.status, i < MAX_PASSCODE_FAILURES ? 400 : 403, `attempt ${i}`);
    page = answer.text;
  }
  assert.match(page, /Too many wrong passcodes/);
  assert.doesNotMatch((await browser.get(link)).text, /name="passcode"|passcode\/send/, 'the locked page has no form');
  const stillLocked = await browser.post(`${link}/passcode`, { _csrf: browser.cookie('signet_csrf') ?? '', passcode: code });
  assert.equal(stillLocked.status, 403, 'the right code after the lockout does not unlock');
  assert.equal((await browser.post(`${link}/passcode/send`, { _csrf: browser.cookie('signet_csrf') ?? '', destination: '0', channel: 'sms' })).status, 403, 'and no new code is sent');

  const before = smtp.received.length;
  await new docusign.EnvelopesApi(await client()).update(env.seed.accountId, envelopeId, { resendEnvelope: 'true' });
  const resent = await pollUntil(() => smtp.received.slice(before).find((m) => toAddress(m) === 'phone@example.com'), { ...wait, what: 'the resent mail' });
  const newLink = new URL(resent.text?.split('\n').find((l) => l.startsWith(`${env.h.origin}/signing/`))?.trim() ?? '').pathname;
  const gate = await browser.get(newLink);
  const texted = await sendCode(browser, newLink, gate.text, /Text a code/);
  assert.equal((await tryCode(browser, newLink, texted.text, lastCode('+14155550199'))).status, 303);
  assert.match((await browser.get(newLink)).text, /data-tab-id/);
  const actions = await auditActions(envelopeId);
  assert.equal(actions.filter((a) => a === 'Passcode Failed').length, MAX_PASSCODE_FAILURES);
});

subtest('e-mail passcode (the "Email Passcode" workflow): the code comes by mail, expires, and a new one works', async () => {
  const workflowId = await workflowNamed('Email Passcode');
  assert.ok(workflowId);
  const definition = { emailSubject: 'Mail code', status: 'sent', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }], recipients: { signers: [{ email: 'mailcode@example.com', name: 'Em Ail', recipientId: '1', identityVerification: { workflowId }, tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] } };
  const { link } = await create(definition, 'mailcode@example.com');
  const browser = new FormClient(env.h.origin);
  const gate = await browser.get(link);
  assert.match(gate.text, /E-mail a code to m•••@example.com/);
  const before = smtp.received.length;
  const sent = await sendCode(browser, link, gate.text, /E-mail/);
  assert.equal(sent.status, 200);
  const mailed = await pollUntil(() => smtp.received.slice(before).find((m) => toAddress(m) === 'mailcode@example.com' && m.subject === 'Your one-time passcode'), { ...wait, what: 'the passcode mail' });
  const code = /passcode for “Mail code” is (\d{6})/.exec(mailed.text ?? '')?.[1] ?? assert.fail('a code in the mail');
  assert.doesNotMatch(mailed.text ?? '', /\/signing\//, 'no link beside the code');
  const wrong = await tryCode(browser, link, sent.text, wrongOf(code));
  assert.equal(wrong.status, 400);
  // Past its lifetime the right code no longer works, and is not counted either.
  env.clock.advance(PASSCODE_TTL_MS / 1000 + 1);
  const stale = await tryCode(browser, link, wrong.text, code);
  assert.equal(stale.status, 400);
  assert.match(stale.text, /No passcode is waiting for you, or it expired/);
  const again = smtp.received.length;
  const resent = await sendCode(browser, link, stale.text, /E-mail/);
  const second = await pollUntil(() => smtp.received.slice(again).find((m) => m.subject === 'Your one-time passcode'), { ...wait, what: 'the second passcode mail' });
  const code2 = /is (\d{6})/.exec(second.text ?? '')?.[1] ?? assert.fail('a second code');
  assert.equal((await tryCode(browser, link, resent.text, code2)).status, 303);
  assert.match((await browser.get(link)).text, /data-tab-id/);
});

subtest('an access code and an SMS passcode together: the access code first, then the passcode', async () => {
  const definition = smsEnvelope('both@example.com', 'Bo Th');
  ((definition.recipients as Record<string, unknown[]>).Signers?.[0] as Record<string, unknown>).AccessCode = 'Kite-77';
  const { link } = await create(definition, 'both@example.com');
  const browser = new FormClient(env.h.origin);
  const gate = await browser.get(link);
  assert.match(gate.text, /Enter your access code/);
  // Counted before the early send: that send must add nothing.
  const sentBefore = texts.length;
  assert.equal((await browser.post(`${link}/passcode/send`, { _csrf: hiddenField(gate.text, '_csrf'), destination: '0', channel: 'sms' })).status, 303, 'no code is sent before the access code');
  assert.equal((await browser.post(`${link}/access-code`, { _csrf: hiddenField(gate.text, '_csrf'), accessCode: 'Kite-77' })).status, 303);
  const step = await browser.get(link);
  assert.match(step.text, /Verify it is you/);
  assert.doesNotMatch(step.text, /data-tab-id/);
  assert.equal(texts.length, sentBefore);
  const sent = await sendCode(browser, link, step.text, /Text a code/);
  assert.equal((await tryCode(browser, link, sent.text, lastCode('+14155550142'))).status, 303);
  assert.match((await browser.get(link)).text, /data-tab-id/);
});

subtest('in Chromium: the signer asks for a text, types a wrong code then the right one, and signs', async () => {
  const { link } = await create(smsEnvelope('chrome@example.com', 'Chris Rome'), 'chrome@example.com');
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${env.h.origin}${link}`);
    await page.getByRole('heading', { name: 'Verify it is you' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Sign here/ }).count(), 0);
    await page.getByRole('button', { name: /Text a code to/ }).click();
    await page.getByRole('status').filter({ hasText: 'A passcode was sent' }).waitFor();
    const code = lastCode('+14155550142');
    await page.getByLabel('Passcode').fill(wrongOf(code));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('alert').filter({ hasText: `${MAX_PASSCODE_FAILURES - 1} tries are left` }).waitFor();
    await page.getByLabel('Passcode').fill(code);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.getByRole('button', { name: /Sign here/ }).first().waitFor();
    await page.getByRole('button', { name: /Sign here/ }).first().click();
    await page.getByRole('button', { name: 'Adopt and sign' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'Thank you for signing' }).waitFor();
  } finally {
    await browser.close();
  }
});

test('one-time passcodes by text, call and e-mail (DocuSign smsAuthentication, phoneAuthentication)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url, {
    textSender: {
      send(message) {
        if (failNext) {
          failNext = false;
          return Promise.reject(new Error('provider unavailable'));
        }
        texts.push(message);
        return Promise.resolve();
      },
    },
  });
  pdf = b64(await samplePdf(1, 'Lorem /sn1/'));
  for (const [name, body] of subtests) await t.test(name, body);
});
