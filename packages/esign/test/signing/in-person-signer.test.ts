import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import { launchChromium, pollUntil } from '@signet/kit';
import { makeSignaturePng } from '../../../pdf/test/raster.fixture.ts';
import { drawnSignatureFinish } from '../support/drawn-signature.ts';
import { pdfText } from '../support/pdf-text.ts';
import { FormClient } from '../support/form-client.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';
import { toAddress } from '../support/mail-parts.ts';

// DocuSign's signingInPerson example (github docusign/code-examples-node,
// lib/eSignature/examples/signingInPerson.js) runs here as it is written: an InPersonSigner
// with a host and the signer's name, then createRecipientView for the host (no clientUserId),
// whose URL the host opens to let the signer sign on the host's device.
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown, cb: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: { envelopeId: string } }>;
    createRecipientView(accountId: string, envelopeId: string, opts: unknown, cb: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: { url: string } }>;
    listRecipients(accountId: string, envelopeId: string): Promise<{ signers: unknown[]; inPersonSigners: Record<string, string>[] }>;
    getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
  };
  RecipientViewRequest: new () => Record<string, unknown>;
} & Record<'EnvelopeDefinition' | 'Document' | 'InPersonSigner' | 'SignHere' | 'Tabs' | 'Recipients', (new () => Record<string, unknown>) & { constructFromObject(o: unknown): Record<string, unknown> }>;
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

/** signingInPerson's makeEnvelope, property for property. */
function makeEnvelope(args: { hostEmail: string; hostName: string; signerName: string }) {
  const env1 = new docusign.EnvelopeDefinition();
  env1.emailSubject = 'Please sign this document';
  const doc1 = new docusign.Document();
  doc1.documentBase64 = pdf;
  doc1.name = 'Lorem Ipsum';
  doc1.fileExtension = 'pdf';
  doc1.documentId = '1';
  env1.documents = [doc1];
  const inPersonSigner = docusign.InPersonSigner.constructFromObject({ hostEmail: args.hostEmail, hostName: args.hostName, signerName: args.signerName, recipientId: 1, routingOrder: 1 });
  const signHere = docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' });
  inPersonSigner.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [signHere] });
  env1.recipients = docusign.Recipients.constructFromObject({ inPersonSigners: [inPersonSigner] });
  env1.status = 'sent';
  return env1;
}

/** signingInPerson's makeRecipientViewRequest. */
function makeRecipientViewRequest(args: { dsReturnUrl: string; hostEmail: string; hostName: string; dsPingUrl: string }) {
  const viewRequest = new docusign.RecipientViewRequest();
  viewRequest.returnUrl = args.dsReturnUrl + '?state=123';
  viewRequest.authenticationMethod = 'none';
  viewRequest.email = args.hostEmail;
  viewRequest.userName = args.hostName;
  viewRequest.pingFrequency = 600;
  viewRequest.pingUrl = args.dsPingUrl;
  return viewRequest;
}

async function certificateText(envelopeId: string): Promise<string> {
  const res = await request(`${env.base}/${envelopeId}/documents/certificate`, { headers: { authorization: `Bearer ${(await env.token()).access_token}` } });
  assert.equal(res.statusCode, 200);
  return pdfText(new Uint8Array(await res.body.arrayBuffer()));
}

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('signingInPerson: the host opens the recipient view, the signer signs on the host\'s device; the envelope completes and lists the in-person signer', async () => {
  const args = { hostEmail: 'host@example.com', hostName: 'Hal Host', signerName: 'Ivy InPerson' };
  const api = await envelopesApi();
  const { envelopeId } = (await api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope(args) }, () => undefined)).data;
  // No clientUserId: the host also gets the mail, with the link, saying whom they host.
  const mail = await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'host@example.com'), { ...wait, what: 'the host\'s mail' });
  assert.match(mail.text ?? '', /in person.*Ivy InPerson|Ivy InPerson.*in person/i);
  assert.ok(mail.text?.includes(`${env.h.origin}/signing/`), 'the host\'s mail has the signing link');

  const { url } = (await api.createRecipientView(env.seed.accountId, envelopeId, { recipientViewRequest: makeRecipientViewRequest({ ...args, dsReturnUrl: 'https://app.example.com/ds-return', dsPingUrl: 'https://app.example.com/ping' }) }, () => undefined)).data;
  const host = new FormClient(env.h.origin);
  const redeemed = await host.get(new URL(url).pathname + new URL(url).search);
  assert.equal(redeemed.status, 303, redeemed.text);
  const signingPath = String(redeemed.headers.location);
  const page = await host.get(signingPath);
  assert.equal(page.status, 200);
  assert.match(page.text, /Hal Host.*Ivy InPerson|Ivy InPerson.*Hal Host/s, 'the page says who hosts and who signs');
  const finish = await drawnSignatureFinish(host, signingPath);
  const done = await finish(makeSignaturePng(600, 200));
  assert.equal(done.status, 303, done.text);
  assert.match(String(done.headers.location), /^https:\/\/app\.example\.com\/ds-return\?state=123&event=signing_complete/);

  await pollUntil(async () => ((await api.getEnvelope(env.seed.accountId, envelopeId)).status === 'completed' ? true : undefined), { ...wait, what: 'completion' });
  const recipients = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.equal(recipients.signers.length, 0);
  const listed = recipients.inPersonSigners[0];
  assert.equal(listed?.hostName, 'Hal Host');
  assert.equal(listed?.hostEmail, 'host@example.com');
  assert.equal(listed?.signerName, 'Ivy InPerson');
  assert.equal(listed?.recipientType, 'inpersonsigner');
  assert.equal(listed?.status, 'completed');
  const certificate = await certificateText(envelopeId);
  assert.match(certificate, /Ivy InPerson/);
  assert.match(certificate, /in person, hosted by Hal Host/);
});

subtest('an in-person signer is refused what would not be honoured: a notary, no host, a view for someone else; updateRecipients corrects host and signer', async () => {
  const base = { emailSubject: 'S', status: 'created', documents: [{ documentId: '1', name: 'A.pdf', documentBase64: pdf }] };
  const refused = async (signer: Record<string, unknown>, named: RegExp) => {
    const res = await env.call('POST', '', { ...base, recipients: { inPersonSigners: [{ recipientId: '1', ...signer }] } });
    assert.equal(res.status, 400, res.text);
    const body = res.json();
    assert.match(`${String(body.errorCode)}: ${String(body.message)}`, named);
  };
  await refused({ hostEmail: 'h@example.com', hostName: 'H', signerName: 'S', inPersonSigningType: 'notary' }, /inPersonSigningType "notary"/);
  await refused({ hostEmail: 'h@example.com', signerName: 'S' }, /hostName is required/);
  await refused({ hostName: 'H', signerName: 'S' }, /INVALID_EMAIL_ADDRESS_FOR_RECIPIENT/);
  await refused({ hostEmail: 'h@example.com', hostName: 'H' }, /signerName is required/);

  const created = await env.call('POST', '', { ...base, status: 'sent', recipients: { inPersonSigners: [{ recipientId: '1', hostEmail: 'h2@example.com', hostName: 'Ho Two', signerName: 'Si Two', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] } });
  assert.equal(created.status, 201, created.text);
  const envelopeId = String(created.json().envelopeId);
  const view = (body: Record<string, unknown>) => env.call('POST', `/${envelopeId}/views/recipient`, { returnUrl: 'https://app.example.com/r', authenticationMethod: 'none', ...body });
  assert.equal((await view({ email: 'h2@example.com', userName: 'Someone Else' })).status, 400, 'the host by name and e-mail');
  assert.equal((await view({ email: 'other@example.com', userName: 'Ho Two' })).status, 400);
  assert.equal((await view({ email: 'H2@example.com', userName: 'Ho Two' })).status, 201);
  // updateRecipients corrects the host (who gets the mail and the link) and the signer; the old host's way in ends.
  const correction = await env.call('PUT', `/${envelopeId}/recipients`, { inPersonSigners: [{ recipientId: '1', hostName: 'Ho Three', hostEmail: 'h3@example.com', signerName: 'Si Three' }] });
  assert.equal(correction.status, 200, correction.text);
  const results = correction.json().recipientUpdateResults as { errorDetails?: unknown }[];
  assert.equal(results[0]?.errorDetails, undefined, correction.text);
  const listed = ((await env.call('GET', `/${envelopeId}/recipients`)).json().inPersonSigners as Record<string, string>[])[0];
  assert.deepEqual([listed?.hostName, listed?.hostEmail, listed?.signerName], ['Ho Three', 'h3@example.com', 'Si Three']);
  await pollUntil(() => smtp.received.find((m) => toAddress(m) === 'h3@example.com'), { ...wait, what: 'the signing mail again, to the new host' });
  assert.equal((await view({ email: 'h2@example.com', userName: 'Ho Two' })).status, 400, 'the old host is no longer the host');
  assert.equal((await view({ email: 'h3@example.com', userName: 'Ho Three' })).status, 201);
  // A host address that is not one is refused by name, and an in-person field no correction reads stays refused.
  assert.equal((await env.call('PUT', `/${envelopeId}/recipients`, { inPersonSigners: [{ recipientId: '1', hostEmail: 'not-an-address' }] })).json().errorCode, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT');
  const hidden = await env.call('PUT', `/${envelopeId}/recipients`, { inPersonSigners: [{ recipientId: '1', excludedDocuments: ['1'] }] });
  assert.equal(hidden.status, 400, hidden.text);
  assert.match(String(hidden.json().message), /excludedDocuments/);
});

subtest('in Chromium: the host opens the view, the page says who hosts and who signs, the signer signs and the browser returns to the app', async () => {
  const args = { hostEmail: 'host3@example.com', hostName: 'Hana Host', signerName: 'Sid Signer' };
  const api = await envelopesApi();
  const { envelopeId } = (await api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope(args) }, () => undefined)).data;
  const { url } = (await api.createRecipientView(env.seed.accountId, envelopeId, { recipientViewRequest: makeRecipientViewRequest({ ...args, dsReturnUrl: 'https://app.example.com/ds-return', dsPingUrl: 'https://app.example.com/ping' }) }, () => undefined)).data;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    // The integrator's return page, answered here: the test has no app.example.com.
    await page.route('https://app.example.com/**', (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<h1>Back in the app</h1>' }));
    await page.goto(url);
    await page.getByRole('note').filter({ hasText: 'In person signing: Hana Host hosts, Sid Signer signs on this device.' }).waitFor();
    await page.getByRole('button', { name: /Sign here/ }).first().click();
    await page.getByRole('button', { name: 'Adopt and sign' }).click();
    await page.getByRole('button', { name: 'Finish' }).click();
    await page.getByRole('heading', { name: 'Back in the app' }).waitFor();
    assert.match(page.url(), /ds-return\?state=123&event=signing_complete/);
  } finally {
    await browser.close();
  }
});

test('in-person signers (DocuSign signingInPerson)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Lorem /sn1/'));
  for (const [name, body] of subtests) await t.test(name, body);
});
