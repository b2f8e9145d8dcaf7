import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { test, type TestContext } from 'node:test';
import { request } from 'undici';
import { pollUntil } from '@signet/kit';
import { FormClient, formFields } from '../support/form-client.ts';
import { signingPathIn, toAddress } from '../support/mail-parts.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { startReminderEsign } from '../reminders/reminders-harness.ts';
import { b64, samplePdf } from '../support/sample-pdf.ts';

// Witnesses (docusign-esign src/model/Witness.js, witnessFor) through the official SDK: routed
// after the signer they witness, mailed when that signer is done, signing on the signing page,
// listed under witnesses and named on the certificate of completion; refused when witnessFor
// names nobody, itself or someone who signs nothing, or when their routing order is not after
// their signer's; corrections and deletions keep that true.
type Model = { constructFromObject(o: unknown): Record<string, unknown> };
type Listed = { signers: Record<string, string>[]; witnesses: Record<string, string>[]; carbonCopies: Record<string, string>[]; currentRoutingOrder?: string };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
    listRecipients(accountId: string, envelopeId: string): Promise<Listed>;
    getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
    updateRecipients(accountId: string, envelopeId: string, opts: unknown): Promise<unknown>;
    deleteRecipient(accountId: string, envelopeId: string, recipientId: string): Promise<Record<string, { recipientId: string }[]>>;
  };
} & Record<'EnvelopeDefinition' | 'Document' | 'Signer' | 'Witness' | 'CarbonCopy' | 'SignHere' | 'Tabs' | 'Recipients', Model>;
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

const signHere = (x: string) => docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ documentId: '1', pageNumber: '1', xPosition: x, yPosition: '500' })] });

function makeEnvelope(tag: string, status: string, witness: Record<string, unknown> = {}) {
  return docusign.EnvelopeDefinition.constructFromObject({
    emailSubject: `Witnessed ${tag}`,
    status,
    documents: [docusign.Document.constructFromObject({ documentBase64: pdf, name: 'Deed', fileExtension: 'pdf', documentId: '1' })],
    recipients: docusign.Recipients.constructFromObject({
      signers: [docusign.Signer.constructFromObject({ email: `signer-${tag}@example.com`, name: 'Sam Signer', recipientId: '1', routingOrder: '1', tabs: signHere('100') })],
      // A key given as undefined is left out (the SDK would send the text "undefined").
      witnesses: [docusign.Witness.constructFromObject(Object.fromEntries(Object.entries({ email: `witness-${tag}@example.com`, name: 'Wes Witness', recipientId: '2', witnessFor: '1', tabs: signHere('300'), ...witness }).filter(([, v]) => v !== undefined)))],
      carbonCopies: [docusign.CarbonCopy.constructFromObject({ email: `cc-${tag}@example.com`, name: 'Cora Copy', recipientId: '3', routingOrder: '3' })],
    }),
  });
}

const mailTo = (address: string) => pollUntil(() => smtp.received.find((m) => toAddress(m) === address), { ...wait, what: `a mail to ${address}` });

/** Opens a mailed signing link and signs every tab with a typed signature, as the page's form posts it. */
async function signFromMail(address: string, name: string): Promise<string> {
  const browser = new FormClient(env.h.origin);
  const path = signingPathIn(await mailTo(address), env.h.origin);
  const page = await browser.get(path);
  assert.equal(page.status, 200, page.text);
  const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
  const finished = await browser.post(`${path}/finish`, { ...formFields(page.text, `${path}/finish`), signatureKind: 'typed', signatureText: name, signedTabs: tabs.join(',') });
  assert.equal(finished.status, 303, finished.text);
  return page.text;
}

async function certificateText(envelopeId: string): Promise<string> {
  const res = await request(`${env.base}/${envelopeId}/documents/certificate`, { headers: { authorization: `Bearer ${(await env.token()).access_token}` } });
  assert.equal(res.statusCode, 200);
  const dir = await mkdtemp('/tmp/witness-');
  try {
    await writeFile(`${dir}/c.pdf`, Buffer.from(await res.body.arrayBuffer()));
    return (await promisify(execFile)('pdftotext', ['-layout', `${dir}/c.pdf`, '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The status, DocuSign errorCode and message of an SDK call that must fail. */
async function sdkFailure(promise: Promise<unknown>): Promise<[number, string, string]> {
  try {
    await promise;
  } catch (err) {
    const r = (err as { response?: { status: number; data: { errorCode: string; message: string } } }).response;
    assert.ok(r, String(err));
    return [r.status, r.data.errorCode, r.data.message];
  }
  assert.fail('expected the call to fail');
}

const subtests: [string, () => Promise<void>][] = [];
const subtest = (name: string, body: () => Promise<void>) => subtests.push([name, body]);

subtest('a witness is routed after their signer, signs on the signing page, is listed under witnesses and named on the certificate', async () => {
  const api = await envelopesApi();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope('a', 'sent') });
  let listed = await api.listRecipients(env.seed.accountId, envelopeId);
  // No routingOrder given: the order right after the signer's.
  assert.deepEqual(listed.witnesses.map((w) => [w.recipientId, w.recipientType, w.witnessFor, w.routingOrder, w.status]), [['2', 'witness', '1', '2', 'created']]);
  assert.equal(listed.signers[0]?.status, 'sent');

  await signFromMail('signer-a@example.com', 'Sam Signer');
  const witnessPage = await signFromMail('witness-a@example.com', 'Wes Witness');
  assert.match(witnessPage, /Witness: you sign to confirm that you saw Sam Signer sign these documents\./);
  const signerMails = smtp.received.filter((m) => toAddress(m) === 'signer-a@example.com').length;
  assert.equal(signerMails, 1, 'the signer was mailed once (the witness was not reached before)');

  await pollUntil(async () => ((await api.getEnvelope(env.seed.accountId, envelopeId)).status === 'completed' ? true : undefined), { ...wait, what: 'completion' });
  listed = await api.listRecipients(env.seed.accountId, envelopeId);
  const w = listed.witnesses[0];
  assert.deepEqual([w?.status, w?.name, w?.email], ['completed', 'Wes Witness', 'witness-a@example.com']);
  assert.ok(w?.signedDateTime, 'a witness signs');
  const certificate = await certificateText(envelopeId);
  assert.match(certificate, /Wes Witness \(witness for Sam\s+Signer\)/);
});

subtest('the witness is not reached before the signer finishes', async () => {
  const api = await envelopesApi();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope('b', 'sent') });
  await mailTo('signer-b@example.com');
  const listed = await api.listRecipients(env.seed.accountId, envelopeId);
  assert.deepEqual([listed.currentRoutingOrder, listed.witnesses[0]?.status], ['1', 'created']);
  // The outbox is delivered in order and the signer's mail is in: nothing was written for the witness.
  assert.equal(smtp.received.some((m) => toAddress(m) === 'witness-b@example.com'), false);
});

subtest('witnessFor naming nobody, the witness itself or a carbon copy, no witnessFor, or a routing order not after the signer\'s: refused, naming why', async () => {
  const api = await envelopesApi();
  const refused = async (witness: Record<string, unknown>, why: RegExp) => {
    const failure = await sdkFailure(api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope('bad', 'created', witness) }));
    assert.deepEqual(failure.slice(0, 2), [400, 'INVALID_REQUEST_BODY'], JSON.stringify(failure));
    assert.match(String(failure[2]), why);
  };
  await refused({ witnessFor: '9' }, /recipientId "2": witnessFor "9" names no recipient of this envelope/);
  await refused({ witnessFor: '2' }, /recipientId "2": witnessFor names the witness itself/);
  await refused({ witnessFor: '3' }, /witnessFor "3" is a carbonCopy, who signs nothing/);
  await refused({ witnessFor: undefined }, /recipientId "2": witnessFor is required/);
  await refused({ routingOrder: '1' }, /routingOrder 1 must come after routing order 1 of the signer they witness/);
  await refused({ note: 'hi' }, /\(Witness\): not supported: note \(/);
});

subtest('corrections and deletions keep the witness after a signer: moving the signer past them, or deleting the signer, is refused with nothing changed; the witness can be deleted', async () => {
  const api = await envelopesApi();
  const { envelopeId } = await api.createEnvelope(env.seed.accountId, { envelopeDefinition: makeEnvelope('c', 'created') });
  const moved = await sdkFailure(api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { signers: [{ recipientId: '1', routingOrder: '2' }] } }));
  assert.deepEqual(moved.slice(0, 2), [400, 'INVALID_REQUEST_BODY']);
  assert.match(String(moved[2]), /routingOrder 2 must come after routing order 2 of the signer they witness/);
  // A witness is corrected in its own list; one moved to watch nobody is refused.
  await api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { witnesses: [{ recipientId: '2', name: 'Wendy Witness' }] } });
  assert.equal((await api.listRecipients(env.seed.accountId, envelopeId)).witnesses[0]?.name, 'Wendy Witness');
  const nobody = await sdkFailure(api.updateRecipients(env.seed.accountId, envelopeId, { recipients: { witnesses: [{ recipientId: '2', witnessFor: '99' }] } }));
  assert.match(String(nobody[2]), /witnessFor "99" names no recipient/);
  const signerGone = await sdkFailure(api.deleteRecipient(env.seed.accountId, envelopeId, '1'));
  assert.deepEqual(signerGone.slice(0, 2), [400, 'INVALID_REQUEST_BODY']);
  assert.match(String(signerGone[2]), /witnessFor "1" names no recipient of the envelope after this deletion/);
  assert.deepEqual((await api.listRecipients(env.seed.accountId, envelopeId)).signers.map((s) => [s.recipientId, s.routingOrder]), [['1', '1']], 'nothing changed');
  const deleted = await api.deleteRecipient(env.seed.accountId, envelopeId, '2');
  assert.deepEqual(deleted.witnesses?.map((r) => r.recipientId), ['2']);
  assert.deepEqual((await api.listRecipients(env.seed.accountId, envelopeId)).witnesses, []);
});

test('witnesses (Witness, witnessFor)', async (t: TestContext) => {
  smtp = await startSmtpListener(t);
  env = await startReminderEsign(t, smtp.url);
  pdf = b64(await samplePdf(1, 'Deed'));
  for (const [name, body] of subtests) await t.test(name, body);
});
