import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import { launchChromium, pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { pdfText } from '../support/pdf-text.ts';
import { FormClient } from '../support/form-client.ts';
import { signingPathIn, toAddress } from '../support/mail-parts.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';

// Certified delivery (docusign-esign src/model/CertifiedDelivery.js; DocuSign: the recipient
// "must receive the completed documents for the envelope to be completed" and signs nothing):
// through the official SDK, a signer, then a certified delivery, then a carbon copy. Routing
// waits for the certified delivery to open the documents and acknowledge them in Chromium.
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
    listRecipients(accountId: string, envelopeId: string): Promise<{ signers: Record<string, string>[]; carbonCopies: Record<string, string>[]; certifiedDeliveries: Record<string, string>[]; currentRoutingOrder?: string }>;
    getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
  };
} & Record<'EnvelopeDefinition' | 'Document' | 'Signer' | 'CarbonCopy' | 'CertifiedDelivery' | 'SignHere' | 'Tabs' | 'Recipients', { constructFromObject(o: unknown): Record<string, unknown> }>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const wait = { timeoutMs: 30_000, intervalMs: 25 };

let smtp: SmtpListener;
let env: Awaited<ReturnType<typeof startReminderEsign>>;
let pdf: string;

async function envelopesApi() {
  const client = new docusign.ApiClient();
  client.setBasePath(`${env.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${(await env.token()).access_token}`);
  return new docusign.EnvelopesApi(client);
}

function makeEnvelope(tag: string) {
  return docusign.EnvelopeDefinition.constructFromObject({
    emailSubject: `Certified ${tag}`,
    status: 'sent',
    documents: [docusign.Document.constructFromObject({ documentBase64: pdf, name: 'Notice', fileExtension: 'pdf', documentId: '1' })],
    recipients: docusign.Recipients.constructFromObject({
      signers: [docusign.Signer.constructFromObject({ email: `signer-${tag}@example.com`, name: 'Sue Signer', recipientId: '1', routingOrder: '1', tabs: docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' })] }) })],
      certifiedDeliveries: [docusign.CertifiedDelivery.constructFromObject({ email: `cd-${tag}@example.com`, name: 'Cal Certified', recipientId: '2', routingOrder: '2' })],
      carbonCopies: [docusign.CarbonCopy.constructFromObject({ email: `cc-${tag}@example.com`, name: 'Cora Copy', recipientId: '3', routingOrder: '3' })],
    }),
  });
}

async function certificateText(envelopeId: string): Promise<string> {
  const res = await request(`${env.base}/${envelopeId}/documents/certificate`, { headers: { authorization: `Bearer ${(await env.token()).access_token}` } });
  assert.equal(res.statusCode, 200);
  return pdfText(new Uint8Array(await res.body.arrayBuffer()));
}

const mailTo = (address: string) => pollUntil(() => smtp.received.find((m) => toAddress(m) === address), { ...wait, what: `a mail to ${address}` });

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('a certified delivery is reached after the signer, must open and acknowledge (Chromium) before routing goes on, and is listed, mailed the copy and certified', async () => {
  const api = await envelopesApi();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope('a') });
  const signerMail = await mailTo('signer-a@example.com');
  assert.equal(smtp.received.some((m) => toAddress(m) === 'cd-a@example.com'), false, 'not reached before the signer finished');
  const signer = new FormClient(env.h.origin);
  const finish = await drawnSignatureFinish(signer, signingPathIn(signerMail, env.h.origin));
  assert.equal((await finish(makeSignaturePng(600, 200))).status, 303);

  const cdMail = await mailTo('cd-a@example.com');
  assert.match(cdMail.subject ?? '', /Certified a/);
  assert.match(cdMail.text ?? '', /view and acknowledge \(certified delivery\)/);
  const link = `${env.h.origin}${signingPathIn(cdMail, env.h.origin)}`;
  // Routing waits: the envelope is not done, and the carbon copy of order 3 is not reached.
  let listed = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.deepEqual([listed.currentRoutingOrder, listed.certifiedDeliveries[0]?.status, listed.carbonCopies[0]?.status], ['2', 'sent', 'created']);
  assert.notEqual((await api.getEnvelope(env.seed.accountId, envelopeId)).status, 'completed');

  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(link);
    await page.getByRole('note').filter({ hasText: 'Certified delivery: view the documents, then select Finish to acknowledge that you received them.' }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Sign here/ }).count(), 0, 'nothing to sign');
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'Thank you' }).waitFor();
    assert.match(await page.content(), /You acknowledged these documents/);
  } finally {
    await browser.close();
  }

  await pollUntil(async () => ((await api.getEnvelope(env.seed.accountId, envelopeId)).status === 'completed' ? true : undefined), { ...wait, what: 'completion' });
  listed = await api.listRecipients(env.seed.accountId, envelopeId);
  const cd = listed.certifiedDeliveries[0];
  assert.deepEqual([cd?.recipientType, cd?.status, cd?.name, cd?.email, cd?.signedDateTime], ['certifieddelivery', 'completed', 'Cal Certified', 'cd-a@example.com', undefined]);
  assert.ok(cd?.deliveredDateTime, 'opening the page delivered it');
  assert.equal(listed.carbonCopies[0]?.status, 'completed');
  // Everyone gets the completed copy, the certified delivery included.
  await pollUntil(() => smtp.received.filter((m) => toAddress(m) === 'cd-a@example.com').length === 2 || undefined, { ...wait, what: 'the completed copy' });
  const certificate = await certificateText(envelopeId);
  assert.match(certificate, /Certified deliveries/);
  assert.match(certificate, /Delivered to:\s+Cal Certified <cd-a@example\.com>/);
  assert.match(certificate, /Acknowledged: Cal Certified viewed and acknowledged the documents \(certified delivery\)\./);
});

subtest('a certified delivery is refused what it cannot have: tabs, a refused field; its access code is asked before the documents show', async () => {
  const base = { emailSubject: 'S', status: 'created', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }] };
  const refused = async (cd: Record<string, unknown>, named: RegExp) => {
    const res = await env.call('POST', '', { ...base, recipients: { certifiedDeliveries: [{ recipientId: '1', name: 'C', email: 'c@example.com', ...cd }] } });
    assert.equal(res.status, 400, res.text);
    assert.match(`${String(res.json().errorCode)}: ${String(res.json().message)}`, named);
  };
  await refused({ tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '10', yPosition: '10' }] } }, /INVALID_REQUEST_BODY: .*signHereTabs is not allowed: a certified delivery views and acknowledges the documents/);
  await refused({ note: 'hello' }, /INVALID_REQUEST_BODY: .*\(CertifiedDelivery\): not supported: note \(/);
  await refused({ email: 'not-an-address' }, /INVALID_EMAIL_ADDRESS_FOR_RECIPIENT/);

  const created = await env.call('POST', '', { ...base, status: 'sent', recipients: { certifiedDeliveries: [{ recipientId: '1', name: 'Coded', email: 'coded@example.com', accessCode: '24680' }] } });
  assert.equal(created.status, 201, created.text);
  const page = await new FormClient(env.h.origin).get(signingPathIn(await mailTo('coded@example.com'), env.h.origin));
  assert.equal(page.status, 200);
  assert.match(page.text, /access code/i);
  assert.doesNotMatch(page.text, /Certified delivery: view the documents/, 'nothing shows before the code');
});

test('certified deliveries (CertifiedDelivery)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Notice /sn1/'));
  for (const [name, body] of subtests) await t.test(name, body);
});
