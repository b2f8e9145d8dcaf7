import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { authorizeViaForms, tokenRequest } from '../support/authorize.ts';
import { startEnvelopeEsign, type EnvelopeHarness } from '../support/envelope-harness.ts';
import { seedUserAndApp } from '../support/esign-harness.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';

// The official SDK, unmodified (CommonJS, no typings): only the parts this test calls are typed.
type SdkError = { response?: { status: number; data: unknown } };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string; status: string; statusDateTime: string; uri: string }>;
  getEnvelope(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<Record<string, unknown> & { status: string; recipients?: { signers: { status: string; recipientId: string }[]; carbonCopies: { status: string }[] } }>;
  update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<{ envelopeId: string }>;
  listRecipients(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<{ recipientCount: string; signers: { recipientId: string; tabs?: { signHereTabs: { documentId: string; pageNumber: string; xPosition: string; yPosition: string }[] } }[]; carbonCopies: unknown[] }>;
  listStatusChanges(accountId: string, opts: Record<string, string>): Promise<{ resultSetSize: string; envelopes: { envelopeId: string; status: string }[] }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string; pages: unknown[] }[] }>;
  getDocument(accountId: string, envelopeId: string, documentId: string): Promise<Buffer>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const run = promisify(execFile);
const b64 = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64');

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

/** Anchors in white text in each format: invisible to readers, real text to the search. */
async function documents() {
  const html = `<!doctype html><html><body style="font-family:Arial"><h1>Order</h1><p>Agreed by the buyer: <span style="color:#ffffff">/sn1/</span></p></body></html>`;
  const docx = await Packer.toBuffer(docxDocument());
  const pdfDoc = await PDFDocument.create();
  const page = pdfDoc.addPage([612, 792]);
  const font = await pdfDoc.embedFont(StandardFonts.Helvetica);
  page.drawText('Terms and conditions', { x: 72, y: 700, size: 16, font });
  page.drawText('/sn2/', { x: 300, y: 200, size: 10, font, color: rgb(1, 1, 1) });
  const pdf = await pdfDoc.save();
  return [
    { documentBase64: b64(html), documentId: '1', fileExtension: 'html', name: 'Order acknowledgement' },
    { documentBase64: b64(docx), documentId: 2, fileExtension: 'docx', name: 'Contract.docx' },
    { documentBase64: b64(pdf), documentId: '3', fileExtension: 'pdf', name: 'Terms' },
  ];
}

function docxDocument(): DocxDocument {
  return new DocxDocument({ sections: [{ children: [new Paragraph({ children: [new TextRun('Contract between the parties.')] }), new Paragraph({ children: [new TextRun('Signature: '), new TextRun({ text: '/sn1/', color: 'FFFFFF' })] })] }] });
}

function definition(docs: unknown[], status: 'sent' | 'created') {
  return {
    emailSubject: 'Please sign this document set',
    documents: docs,
    recipients: {
      signers: [
        { email: 'first@example.com', name: 'First Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' }] } },
        { email: 'second@example.com', name: 'Second Signer', recipientId: '2', routingOrder: 2, tabs: { signHereTabs: [{ anchorString: '/sn2/', anchorUnits: 'pixels', anchorXOffset: 0, anchorYOffset: 0 }] } },
      ],
      carbonCopies: [{ email: 'copy@example.com', name: 'Casey Copy', recipientId: '3', routingOrder: 1 }],
    },
    status,
  };
}

/** Word boxes from poppler's pdftotext (an independent reader): points, origin top-left. */
async function wordBoxes(pdf: Buffer, dir: string, name: string) {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const { stdout } = await run('pdftotext', ['-bbox', file, '-']);
  return [...stdout.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="[\d.]+" yMax="[\d.]+">([^<]*)<\/word>/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), text: m[3] ?? '' }));
}

async function sdkError(promise: Promise<unknown>): Promise<{ status: number; data: { errorCode: string; message: string } }> {
  try {
    await promise;
  } catch (err) {
    const response = (err as SdkError).response;
    assert.ok(response, `expected an HTTP error, got ${String(err)}`);
    return response as { status: number; data: { errorCode: string; message: string } };
  }
  assert.fail('expected the SDK call to fail');
}

async function outboxSettled(h: EnvelopeHarness, count: number) {
  const repo = new OutboxRepository(h.store.db);
  await pollUntil(async () => {
    const rows = await repo.list();
    return rows.length === count && rows.every((r) => r.status === 'delivered');
  }, { timeoutMs: 15_000, intervalMs: 50, what: `${count} outbox mails delivered` });
}

test('the docusign-esign SDK: html + docx + pdf with white-text anchors, routing order 1 mailed, draft sent later, void, bad inputs', async (t) => {
  const smtp: SmtpListener = await startSmtpListener(t);
  const h = await startEnvelopeEsign(t, { converter, smtpUrl: smtp.url });
  const seed = await seedUserAndApp(h);
  const code = (await authorizeViaForms(h, seed)).searchParams.get('code') ?? '';
  const { access_token: token } = (await tokenRequest(h, { grant_type: 'authorization_code', code }, { id: seed.clientId, secret: seed.secret })).json() as { access_token: string };
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  const api = new docusign.EnvelopesApi(client);
  const acc = seed.accountId;
  const scratch = mkdtempSync(join(tmpdir(), 'signet-sdk-'));
  t.after(() => rmSync(scratch, { recursive: true, force: true }));
  const docs = await documents();

  // 1. Sent at once: routing order 1 (first signer + carbon copy) is mailed, the second signer is not.
  const summary = await api.createEnvelope(acc, { envelopeDefinition: definition(docs, 'sent') });
  assert.equal(summary.status, 'sent');
  assert.equal(summary.uri, `/envelopes/${summary.envelopeId}`);
  assert.match(summary.statusDateTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}Z$/);
  await outboxSettled(h, 2);
  assert.deepEqual(smtp.received.map((m) => (m.to && !Array.isArray(m.to) ? m.to.value[0]?.address : '')).sort(), ['copy@example.com', 'first@example.com']);
  const signerMail = smtp.received.find((m) => m.text?.includes('Review and sign'));
  const link = signerMail?.text?.split('\n').find((l) => l.startsWith(`${h.origin}/signing/`));
  assert.ok(link, 'the signer’s mail carries a plain signing URL');
  assert.equal(signerMail?.subject, 'Please sign this document set');

  // Tabs: one per match of /sn1/ (html and docx), one for /sn2/ (pdf), where poppler sees the anchor text plus the offsets.
  const recipients = await api.listRecipients(acc, summary.envelopeId, { includeTabs: 'true' });
  assert.equal(recipients.recipientCount, '3');
  const tabs = recipients.signers.map((s) => s.tabs?.signHereTabs ?? []);
  assert.deepEqual(tabs[0]?.map((tab) => tab.documentId), ['1', '2']);
  assert.deepEqual(tabs[1]?.map((tab) => tab.documentId), ['3']);
  for (const [signer, anchor, dx, dy] of [[0, '/sn1/', 20, 10], [1, '/sn2/', 0, 0]] as const) {
    for (const tab of tabs[signer] ?? []) {
      const pdf = await api.getDocument(acc, summary.envelopeId, tab.documentId);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const word = (await wordBoxes(pdf, scratch, `${signer}-${tab.documentId}`)).find((w) => w.text.includes(anchor));
      assert.ok(word, `${anchor} is text in document ${tab.documentId}`);
      assert.equal(tab.pageNumber, '1');
      assert.ok(Math.abs(Number(tab.xPosition) - (word.x + dx)) < 2, `x ${tab.xPosition} vs ${word.x}+${dx} in document ${tab.documentId}`);
      assert.ok(Math.abs(Number(tab.yPosition) - (word.y + dy)) < 3, `y ${tab.yPosition} vs ${word.y}+${dy} in document ${tab.documentId}`);
    }
  }

  const full = await api.getEnvelope(acc, summary.envelopeId, { include: 'recipients,documents' });
  assert.equal(full.status, 'sent');
  assert.deepEqual(full.recipients?.signers.map((s) => s.status), ['sent', 'created']);
  assert.deepEqual(full.recipients?.carbonCopies.map((c) => c.status), ['completed']);
  const listed = await api.listDocuments(acc, summary.envelopeId);
  assert.deepEqual(listed.envelopeDocuments.map((d) => [d.documentId, d.name]), [['1', 'Order acknowledgement'], ['2', 'Contract.docx'], ['3', 'Terms']]);

  // 2. A draft: nothing is mailed until it is sent.
  const draft = await api.createEnvelope(acc, { envelopeDefinition: definition(docs, 'created') });
  assert.equal(draft.status, 'created');
  assert.equal((await new OutboxRepository(h.store.db).list()).length, 2);
  assert.equal((await api.update(acc, draft.envelopeId, { envelope: { status: 'sent' } })).envelopeId, draft.envelopeId);
  await outboxSettled(h, 4);
  assert.equal((await api.getEnvelope(acc, draft.envelopeId)).status, 'sent');

  // 3. Void: the recipients already reached are told, with the reason.
  await api.update(acc, summary.envelopeId, { envelope: { status: 'voided', voidedReason: 'Sent by mistake' } });
  await outboxSettled(h, 6);
  const voidMails = smtp.received.filter((m) => m.subject === 'Voided: Please sign this document set');
  assert.equal(voidMails.length, 2);
  assert.ok(voidMails.every((m) => m.text?.includes('Reason: Sent by mistake')));
  assert.equal((await api.getEnvelope(acc, summary.envelopeId)).status, 'voided');
  assert.equal((await sdkError(api.update(acc, summary.envelopeId, { envelope: { status: 'voided', voidedReason: 'again' } }))).data.errorCode, 'ENVELOPE_CANNOT_VOID_INVALID_STATE');

  const changes = await api.listStatusChanges(acc, { fromDate: '2020-01-01T00:00:00.000Z', status: 'sent,voided' });
  assert.deepEqual(changes.envelopes.map((e) => [e.envelopeId, e.status]).sort(), [[draft.envelopeId, 'sent'], [summary.envelopeId, 'voided']].sort());

  // 4. Bad inputs: each gets its DocuSign error and leaves nothing behind.
  const bad = async (mutate: (d: ReturnType<typeof definition>) => void, code: string, fragment: string) => {
    const d = definition(structuredClone(docs), 'sent');
    mutate(d);
    const err = await sdkError(api.createEnvelope(acc, { envelopeDefinition: d }));
    assert.equal(err.status, 400);
    assert.equal(err.data.errorCode, code, JSON.stringify(err.data));
    assert.ok(err.data.message.includes(fragment), `"${err.data.message}" should name "${fragment}"`);
  };
  await bad((d) => (d.recipients.signers[1]!.email = 'not-an-address'), 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT', 'recipientId 2');
  await bad((d) => ((d.documents[2] as { documentId: unknown }).documentId = '1'), 'INVALID_REQUEST_BODY', 'documentId "1"');
  await bad((d) => (d.recipients.carbonCopies[0]!.recipientId = '1'), 'INVALID_REQUEST_BODY', 'recipientId "1"');
  await bad((d) => ((d.documents[0] as { documentBase64: string }).documentBase64 = '%%%'), 'INVALID_REQUEST_BODY', 'documentBase64');
  await bad((d) => ((d.documents[0] as { fileExtension: string }).fileExtension = 'exe'), 'FORMAT_CONVERSION_ERROR', 'exe');
  await bad((d) => ((d.documents[2] as { documentBase64: string }).documentBase64 = b64('%PDF-1.7 this is not a pdf')), 'PDF_VALIDATION_FAILED', 'documentId 3');
  await bad((d) => (d.recipients.signers[1]!.tabs.signHereTabs[0]!.anchorString = '/nowhere/'), 'ANCHOR_TAB_STRING_NOT_FOUND', '/nowhere/');
  // Off the page, placed absolutely or pushed off by an anchor offset: refused at creation (assert-tab-on-page.ts).
  await bad((d) => (d.recipients.signers[1]!.tabs.signHereTabs = [{ documentId: '3', pageNumber: '1', xPosition: '700', yPosition: '100' }] as never), 'TAB_OUT_OF_BOUNDS', 'off of page 1 of documentId 3');
  await bad((d) => (d.recipients.signers[1]!.tabs.signHereTabs[0]!.anchorXOffset = '400'), 'TAB_OUT_OF_BOUNDS', 'anchor "/sn2/"');
  const missing = await sdkError(api.getEnvelope(acc, '00000000-0000-4000-8000-000000000000'));
  assert.deepEqual(missing, { ...missing, status: 400, data: { errorCode: 'ENVELOPE_DOES_NOT_EXIST', message: 'The envelope specified either does not exist or you have no rights to it.' } });
  const all = await api.listStatusChanges(acc, { fromDate: '2020-01-01T00:00:00.000Z' });
  assert.equal(all.resultSetSize, '2', 'the rejected envelopes left nothing behind');
  assert.equal((await new OutboxRepository(h.store.db).list()).length, 6);
});
