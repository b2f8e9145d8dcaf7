import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { PDFDocument } from 'pdf-lib';
import { pollUntil } from '@signet/kit';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';
import { signingPageFixture } from '../support/signing-page-fixture.ts';
import { FormClient, formFields } from '../support/form-client.ts';
import { signingPathIn, toAddress } from '../support/mail-parts.ts';
import { startSmtpListener } from '../support/smtp-listener.ts';

// Document visibility (DocuSign enforceSignerVisibility + excludedDocuments) through the real
// parts: a real SMTP listener, SQLite, the REST API. A recipient never gets a document hidden
// from them: not named in their mail, not on their signing page, not by guessing its id on the
// page's image or file URLs, not in their completed copy or download, not through the API read
// as them (recipient_id). And the sender's mistakes are refused as DocuSign refuses them.

const fx = signingPageFixture();

const sign = (documentId: string) => ({ signHereTabs: [{ documentId, pageNumber: '1', xPosition: '72', yPosition: '640' }] });

async function pageCount(pdf: Uint8Array): Promise<number> {
  return (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
}

async function definition(recipients: unknown, extra: Record<string, unknown> = { enforceSignerVisibility: 'true' }) {
  return {
    emailSubject: 'Visibility',
    status: 'sent',
    ...extra,
    documents: [
      { documentBase64: b64(await samplePdf(1, 'Shared terms')), documentId: '1', fileExtension: 'pdf', name: 'Shared terms' },
      { documentBase64: b64(await samplePdf(1, 'Ada side letter')), documentId: '2', fileExtension: 'pdf', name: 'Ada side letter' },
      { documentBase64: b64(await samplePdf(1, 'Price list')), documentId: '3', fileExtension: 'pdf', name: 'Price list' },
    ],
    recipients,
  };
}

test('document visibility: mails, the signing page and its URLs, the copies and the API as the recipient', async (t) => {
  const smtp = await startSmtpListener(t);
  const h = await startSigningEsign(t, { converter: fx.converter, smtpUrl: smtp.url });
  const mailTo = (email: string, pred: (m: ParsedMail) => boolean = () => true) => smtp.received.filter((m) => toAddress(m) === email && pred(m));

  await t.test('the sender\'s mistakes are refused by name, nothing stored', async () => {
    const cases: [string, unknown, number, string][] = [
      ['excludedDocuments without enforceSignerVisibility', await definition({ signers: [{ email: 'x@example.com', name: 'X', recipientId: '1', tabs: sign('1'), excludedDocuments: ['3'] }] }, {}), 400, 'INVALID_REQUEST_BODY'],
      ['a document the recipient has tabs on', await definition({ signers: [{ email: 'x@example.com', name: 'X', recipientId: '1', tabs: sign('1'), excludedDocuments: ['1'] }] }), 400, 'CANNOT_EXCLUDE_DOCUMENT'],
      ['a document the envelope does not have', await definition({ signers: [{ email: 'x@example.com', name: 'X', recipientId: '1', tabs: sign('1'), excludedDocuments: ['9'] }] }), 400, 'DOCUMENT_DOES_NOT_EXIST'],
      ['an in-person signer\'s', await definition({ inPersonSigners: [{ hostEmail: 'x@example.com', hostName: 'X', signerName: 'Y', recipientId: '1', tabs: sign('1'), excludedDocuments: ['3'] }] }), 400, 'INVALID_REQUEST_BODY'],
    ];
    for (const [what, body, status, code] of cases) {
      const response = await h.api('POST', '/envelopes', body);
      const answer = (await response.json()) as { errorCode: string; message: string };
      assert.deepEqual([response.status, answer.errorCode], [status, code], `${what}: ${answer.message}`);
    }
    // Templates keep visibility too (docs/esign-templates.md), by the same rules: a role is never hidden a document it has tabs on.
    const template = await h.api('POST', '/templates', { name: 'T', emailSubject: 'T', enforceSignerVisibility: 'true', documents: [(await definition({})).documents[0]], recipients: { signers: [{ roleName: 'S', recipientId: '1', tabs: sign('1'), excludedDocuments: ['1'] }] } });
    assert.deepEqual([template.status, ((await template.json()) as { errorCode: string }).errorCode], [400, 'CANNOT_EXCLUDE_DOCUMENT']);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(smtp.received.length, 0, 'no envelope was sent');
  });

  // Ada signs 1 and 2; Bob signs 1 and is kept from the tabless 3; Cy (a copy) is kept from 2.
  const created = await h.api('POST', '/envelopes', await definition({
    signers: [
      { email: 'ada@example.com', name: 'Ada', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [...sign('1').signHereTabs, ...sign('2').signHereTabs] } },
      { email: 'bob@example.com', name: 'Bob', recipientId: '2', routingOrder: '1', tabs: sign('1'), excludedDocuments: ['3'] },
    ],
    carbonCopies: [{ email: 'cy@example.com', name: 'Cy', recipientId: '3', routingOrder: '2', excludedDocuments: ['2'] }],
  }));
  assert.equal(created.status, 201, await created.clone().text());
  const { envelopeId } = (await created.json()) as { envelopeId: string };

  await t.test('the envelope and its recipients say what is hidden', async () => {
    const envelope = (await (await h.api('GET', `/envelopes/${envelopeId}`)).json()) as { enforceSignerVisibility?: string };
    assert.equal(envelope.enforceSignerVisibility, 'true');
    const recipients = (await (await h.api('GET', `/envelopes/${envelopeId}/recipients`)).json()) as { signers: { recipientId: string; excludedDocuments?: string[] }[]; carbonCopies: { excludedDocuments?: string[] }[] };
    assert.deepEqual(recipients.signers.map((s) => s.excludedDocuments), [undefined, ['3']]);
    assert.deepEqual(recipients.carbonCopies[0]?.excludedDocuments, ['2']);
  });

  await pollUntil(() => mailTo('ada@example.com').length > 0 && mailTo('bob@example.com').length > 0, { timeoutMs: 30_000, intervalMs: 50, what: 'the signing mails' });
  const bobMail = mailTo('bob@example.com')[0]!;
  const bobPath = signingPathIn(bobMail, h.origin);

  await t.test('Bob\'s mail names only his document', () => {
    assert.ok(bobMail.text?.includes('Shared terms'));
    assert.ok(!bobMail.text?.includes('Ada side letter') && !bobMail.text?.includes('Price list'), bobMail.text);
    assert.ok(mailTo('ada@example.com')[0]?.text?.includes('Price list'), 'a document without tabs is everyone\'s but the excluded');
  });

  await t.test('attack: Bob guessing another document\'s id on his page\'s image and file URLs gets nothing', async () => {
    const bob = new FormClient(h.origin);
    const page = await bob.get(bobPath);
    assert.equal(page.status, 200);
    assert.ok(page.text.includes('aria-label="Shared terms"'));
    assert.ok(!page.text.includes('Ada side letter') && !page.text.includes('Price list'), 'neither is on his page');
    assert.equal((await bob.get(`${bobPath}/documents/1/pages/1`)).status, 200);
    for (const id of ['2', '3']) {
      const image = await bob.get(`${bobPath}/documents/${id}/pages/1`);
      assert.equal(image.status, 404, `page image of ${id}`);
      assert.ok(!(image.headers['content-type'] ?? '').toString().startsWith('image/'));
      assert.equal((await bob.get(`${bobPath}/supplements/${id}`)).status, 404, `file of ${id}`);
    }
  });

  await t.test('the API read as a recipient (recipient_id) lists and gives only theirs', async () => {
    const listed = (await (await h.api('GET', `/envelopes/${envelopeId}/documents?recipient_id=2`)).json()) as { envelopeDocuments: { documentId: string }[] };
    assert.deepEqual(listed.envelopeDocuments.map((d) => d.documentId), ['1']);
    const hidden = await h.api('GET', `/envelopes/${envelopeId}/documents/3?recipient_id=2`);
    assert.deepEqual([hidden.status, ((await hidden.json()) as { errorCode: string }).errorCode], [400, 'DOCUMENT_DOES_NOT_EXIST']);
    const unknown = await h.api('GET', `/envelopes/${envelopeId}/documents?recipient_id=99`);
    assert.equal(((await unknown.json()) as { errorCode: string }).errorCode, 'INVALID_REQUEST_PARAMETER');
    // The sender's own view is every document.
    const all = (await (await h.api('GET', `/envelopes/${envelopeId}/documents`)).json()) as { envelopeDocuments: { documentId: string }[] };
    assert.deepEqual(all.envelopeDocuments.map((d) => d.documentId), ['1', '2', '3']);
  });

  await t.test('completed: each copy holds only what its recipient sees', async () => {
    for (const [email, name] of [['bob@example.com', 'Bob'], ['ada@example.com', 'Ada']] as const) {
      const path = signingPathIn(mailTo(email)[0]!, h.origin);
      const browser = new FormClient(h.origin);
      const page = await browser.get(path);
      const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
      const done = await browser.post(`${path}/finish`, { ...formFields(page.text, `${path}/finish`), signatureKind: 'typed', signatureText: name, signedTabs: tabs.join(',') });
      assert.equal(done.status, 303, done.text);
    }
    const completedFor = (email: string) => mailTo(email, (m) => (m.attachments ?? []).length > 0)[0];
    await pollUntil(() => ['ada@example.com', 'bob@example.com', 'cy@example.com'].every((e) => completedFor(e) !== undefined), { timeoutMs: 120_000, intervalMs: 100, what: 'the completed mails' });
    const attached = async (email: string) => pageCount(new Uint8Array(completedFor(email)!.attachments[0]!.content));
    assert.equal(await attached('bob@example.com'), 1, 'Bob: Shared terms only');
    assert.equal(await attached('cy@example.com'), 2, 'Cy: Shared terms and the price list');
    assert.ok(await attached('ada@example.com') > 3, 'Ada sees all: the sealed combined PDF with its certificate');
    // Bob's download on his signing link gives the same.
    const download = await fetch(`${h.origin}${bobPath}/download`);
    assert.equal(download.status, 200);
    assert.equal(await pageCount(new Uint8Array(await download.arrayBuffer())), 1);
    const combined = await h.api('GET', `/envelopes/${envelopeId}/documents/combined?recipient_id=3`);
    assert.equal(await pageCount(new Uint8Array(await combined.arrayBuffer())), 2);
  });
});
