import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { MAX_ACCESS_CODE_FAILURES } from '../../src/domain/signing/access-code.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { toAddress } from '../support/mail-parts.ts';

// DocuSign's accessCodeAuthentication example (github docusign/code-examples-node,
// lib/eSignature/examples) builds its models by assigning capitalised properties (Status,
// DocumentBase64, AccessCode...), which DocuSign reads case-insensitively; these calls do the
// same (its own base64 PDF is replaced by ours). Every code is tried wrong first.
type Model = new () => Record<string, unknown>;
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown, cb: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: { envelopeId: string } }>;
    listRecipients(accountId: string, envelopeId: string): Promise<{ signers: Record<string, unknown>[] }>;
    update(accountId: string, envelopeId: string, opts: unknown): Promise<unknown>;
  };
} & Record<'EnvelopeDefinition' | 'Document' | 'SignHere' | 'Tabs' | 'Signer' | 'Recipients', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 20_000, intervalMs: 20 };
const CODE = 'N7-quartz-41';

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function api() {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

/** accessCodeAuthentication's envelope, property for property. */
function exampleEnvelope(signerEmail: string, signerName: string) {
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
  signer1.AccessCode = CODE;
  signer1.smsAuthentication = null;
  signer1.requireIdLookup = 'false';
  const recipients = new docusign.Recipients();
  recipients.Signers = [signer1];
  env1.recipients = recipients;
  return env1;
}

async function send(email: string): Promise<{ envelopeId: string; link: string }> {
  const { envelopeId } = (await (await api()).createEnvelope(env.seed.accountId, { envelopeDefinition: exampleEnvelope(email, 'Ace Code') }, () => undefined)).data;
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === email), { ...wait, what: `the mail to ${email}` });
  assert.doesNotMatch(`${mail.text ?? ''}${mail.html || ''}`, new RegExp(CODE), 'the code is never in the mail');
  const link = mail.text?.split('\n').find((l) => l.startsWith(`${env.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link');
  return { envelopeId, link: new URL(link).pathname };
}

const tryCode = (browser: FormClient, link: string, page: string, code: string) => browser.post(`${link}/access-code`, { _csrf: hiddenField(page, '_csrf'), accessCode: code });

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('nothing of the envelope shows, and nothing is done, before the access code; wrong codes are counted; the right one opens the page for this browser only', async () => {
  const { envelopeId, link } = await send('ace@example.com');
  const browser = new FormClient(env.h.origin);
  const gate = await browser.get(link);
  assert.equal(gate.status, 200);
  assert.match(gate.text, /Enter your access code/);
  assert.doesNotMatch(gate.text, /\/documents\/|data-tab-id|finish/, 'no page image, no tab, no Finish before the code');
  // Straight to what the page would load or post: refused.
  assert.equal((await browser.get(`${link}/documents/1/pages/1`)).status, 403);
  assert.equal((await browser.post(`${link}/finish`, { _csrf: hiddenField(gate.text, '_csrf'), signatureKind: 'typed', signatureText: 'Ace', signedTabs: '' })).status, 403);
  assert.equal((await browser.post(`${link}/decline`, { _csrf: hiddenField(gate.text, '_csrf'), reason: 'no' })).status, 403);
  const recipients = await (await api()).listRecipients(env.seed.accountId, envelopeId);
  assert.equal(recipients.signers[0]?.status, 'sent', 'not even "delivered": the signer has not seen it');
  assert.equal(JSON.stringify(recipients).includes(CODE), false);

  const wrong = await tryCode(browser, link, gate.text, CODE.toLowerCase());
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, new RegExp(`not correct. ${MAX_ACCESS_CODE_FAILURES - 1} tries are left`));
  const right = await tryCode(browser, link, wrong.text, CODE);
  assert.equal(right.status, 303, right.text);
  const page = await browser.get(link);
  assert.match(page.text, /data-tab-id/, 'the ceremony, once the code is right');
  assert.equal((await browser.get(`${link}/documents/1/pages/1`)).status, 200);

  // The link alone, in another browser, still asks for the code.
  assert.match((await new FormClient(env.h.origin).get(link)).text, /Enter your access code/);

  const finish = await drawnSignatureFinish(browser, link);
  assert.equal((await finish(makeSignaturePng(600, 200))).status, 303);
  const audit = await env.call('GET', `/${envelopeId}/audit_events`);
  const actions = (audit.json() as { auditEvents: { eventFields: { name: string; value: string }[] }[] }).auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value);
  assert.deepEqual(actions.filter((a) => a?.startsWith('Access Code')), ['Access Code Failed', 'Access Code Passed']);
});

subtest(`after ${MAX_ACCESS_CODE_FAILURES} wrong codes the signer is locked out, even with the right code, until the sender resends`, async () => {
  const { envelopeId, link } = await send('locked@example.com');
  const browser = new FormClient(env.h.origin);
  let page = (await browser.get(link)).text;
  for (let i = 1; i <= MAX_ACCESS_CODE_FAILURES; i++) {
    const answer = await tryCode(browser, link, page, `guess-${i}`);
    assert.equal(answer.status, i < MAX_ACCESS_CODE_FAILURES ? 400 : 403, `attempt ${i}`);
    page = answer.text;
  }
  assert.match(page, /Too many wrong access codes/);
  const lockedPage = await browser.get(link);
  assert.match(lockedPage.text, /Too many wrong access codes/);
  assert.doesNotMatch(lockedPage.text, /name="accessCode"/, 'the locked page has no form');
  const stillLocked = await browser.post(`${link}/access-code`, { _csrf: browser.cookie('signet_csrf') ?? '', accessCode: CODE });
  assert.equal(stillLocked.status, 403, 'the right code after the lockout does not unlock');

  // The sender resends: a new link, and the count starts again.
  const before = smtp.received.length;
  await (await api()).update(env.seed.accountId, envelopeId, { resendEnvelope: 'true' });
  const resent = await pollUntil(() => smtp.received.slice(before).find((m) => toAddress(m) === 'locked@example.com'), { ...wait, what: 'the resent mail' });
  const newLink = new URL(resent.text?.split('\n').find((l) => l.startsWith(`${env.h.origin}/signing/`))?.trim() ?? '').pathname;
  const gate = await browser.get(newLink);
  assert.equal((await tryCode(browser, newLink, gate.text, CODE)).status, 303);
  assert.match((await browser.get(newLink)).text, /data-tab-id/);
});

subtest('the code is stored only as a slow salted hash; template roles cannot carry one', async () => {
  const { envelopeId } = await send('hash@example.com');
  const row = await env.h.store.db.kysely.selectFrom('recipient_access_codes').selectAll().where('envelope_id', '=', envelopeId).executeTakeFirstOrThrow();
  assert.match(row.code_hash, /^scrypt\$/);
  assert.equal(row.code_hash.includes(CODE), false);
  const refused = await env.call('POST', '', { emailSubject: 'T', status: 'created', templateId: 'x', templateRoles: [{ roleName: 'signer', email: 'r@example.com', name: 'R', accessCode: '1234' }] });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /accessCode/);
});

test('signer access codes (DocuSign accessCodeAuthentication)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Lorem'));
  for (const [name, body] of subtests) await t.test(name, body);
});
