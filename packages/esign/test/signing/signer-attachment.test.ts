import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Page } from 'playwright-core';
import { FormClient, formFields } from '../support/form-client.ts';
import { pollUntil } from '@signet/kit';
import { makeBlankPng } from '../../../pdf/test/raster.fixture.ts';
import { b64, samplePdf, startSigningEsign } from './signing-harness.ts';
import { signingPageFixture } from '../support/signing-page-fixture.ts';

// signerAttachment tabs through the real parts: the SDK sends one required and one optional
// attachment tab; in Chromium (desktop and phone) the signer picks files: a GIF is refused in the
// page, a PNG and a PDF are taken; Finish waits for the required one. The files become documents
// of the envelope with the Finish (listDocuments, getDocument, the completed PDF). A forged Finish
// (a GIF, an image bomb, a missing required file, another tab's id) is refused and writes nothing.

const run = promisify(execFile);
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (c: unknown) => {
    createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
    createRecipientView(accountId: string, envelopeId: string, opts: unknown): Promise<{ url: string }>;
    listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string; pages?: unknown }[] }>;
    getDocument(accountId: string, envelopeId: string, documentId: string): Promise<Buffer>;
    listRecipients(accountId: string, envelopeId: string): Promise<{ signers: { status: string }[] }>;
  };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingPageFixture();
let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'signet-attach-'));
});
after(() => rm(dir, { recursive: true, force: true }));

async function utilityBill(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]).drawText('Utility bill for Ada', { x: 72, y: 700, size: 14, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save();
}

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });

async function pdfText(bytes: Uint8Array): Promise<string> {
  const file = join(dir, `t-${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, bytes);
  return (await run('pdftotext', ['-layout', file, '-'])).stdout;
}

test('signerAttachment: files picked in Chromium become documents of the envelope with the Finish; bad files refused in the page and on the server', async (t) => {
  const h = await startSigningEsign(t, { converter: fx.converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  const api = new docusign.EnvelopesApi(client);
  const files = { png: join(dir, 'proof.png'), pdf: join(dir, 'bill.pdf'), gif: join(dir, 'cat.gif') };
  await writeFile(files.png, makeBlankPng(200, 100));
  await writeFile(files.pdf, await utilityBill());
  await writeFile(files.gif, Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'));

  const open = async (clientUserId: string, viewport: { width: number; height: number }) => {
    const { envelopeId } = await api.createEnvelope(h.accountId, { envelopeDefinition: {
      emailSubject: 'Proof of address',
      documents: [{ documentBase64: b64(await samplePdf(1, 'Lease')), documentId: '1', fileExtension: 'pdf', name: 'Lease' }],
      recipients: { signers: [{ email: `${clientUserId}@example.com`, name: 'Ada Lovelace', recipientId: '1', routingOrder: '1', clientUserId, tabs: {
        signHereTabs: [at(72, 600)],
        signerAttachmentTabs: [{ ...at(72, 100), tabLabel: 'Proof of address' }, { ...at(330, 100), tabLabel: 'Extra', optional: 'true' }],
      } }] },
      status: 'sent',
    } });
    const { url } = await api.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email: `${clientUserId}@example.com`, userName: 'Ada Lovelace', clientUserId } });
    const context = await fx.browser.newContext({ viewport, locale: 'en-US' });
    const page = await context.newPage();
    await page.goto(url);
    await page.getByRole('button', { name: 'Finish' }).waitFor();
    return { envelopeId, page };
  };
  const sign = async (page: Page) => {
    await page.getByRole('button', { name: 'Sign here' }).click();
    await page.getByRole('button', { name: 'Adopt and sign' }).click();
  };

  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]] as const) {
    await t.test(name, async () => {
      const { envelopeId, page } = await open(`ada-${name}`, viewport);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await sign(page);
      assert.equal(await page.getByRole('button', { name: 'Finish' }).isDisabled(), true, 'the required attachment is missing');
      await page.getByText('1 file to attach').waitFor();
      await page.getByLabel('Proof of address').setInputFiles(files.gif);
      await page.getByText('Attach a PDF, PNG or JPEG file.').waitFor();
      assert.equal(await page.getByLabel('Proof of address').getAttribute('aria-invalid'), 'true');
      assert.equal(await page.getByRole('button', { name: 'Finish' }).isDisabled(), true);
      await page.getByLabel('Proof of address').setInputFiles(files.png);
      await page.getByLabel('Extra (optional)').setInputFiles(files.pdf);
      await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).waitFor();
      if (name === 'phone') assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 360, 'no horizontal scroll');
      // The Finish carries the files: under load it can outlast the default 30 s navigation wait.
      await Promise.all([
        page.waitForURL((u) => u.toString().startsWith(fx.returnUrl), { timeout: 120_000 }),
        page.getByRole('button', { name: 'Finish' }).click({ noWaitAfter: true }),
      ]);
      assert.deepEqual(errors, []);
      await page.context().close();

      const documents = (await api.listDocuments(h.accountId, envelopeId)).envelopeDocuments.filter((d) => d.documentId !== 'certificate');
      assert.deepEqual(documents.map((d) => [d.documentId, d.name]), [['1', 'Lease'], ['2', 'Proof of address'], ['3', 'Extra']]);
      const proof = await PDFDocument.load(new Uint8Array(await api.getDocument(h.accountId, envelopeId, '2')));
      assert.equal(proof.getPageCount(), 1, 'the PNG became a page');
      assert.match(await pdfText(new Uint8Array(await api.getDocument(h.accountId, envelopeId, '3'))), /Utility bill for Ada/);
      await pollUntil(async () => (await h.api('GET', `/envelopes/${envelopeId}`).then((r) => r.json()) as { status: string }).status === 'completed', { timeoutMs: 30_000, intervalMs: 100, what: 'completion' });
      assert.match(await pdfText(new Uint8Array(await api.getDocument(h.accountId, envelopeId, 'combined'))), /Utility bill for Ada/, 'the attachments are in the completed envelope');
    });
  }

  await t.test('a forged Finish (a GIF, an image bomb, the required file left out, another tab\'s id) is refused and writes nothing', async () => {
    const clientUserId = 'ada-forged';
    const { envelopeId } = await api.createEnvelope(h.accountId, { envelopeDefinition: {
      emailSubject: 'Proof of address',
      documents: [{ documentBase64: b64(await samplePdf(1, 'Lease')), documentId: '1', fileExtension: 'pdf', name: 'Lease' }],
      recipients: { signers: [{ email: 'forged@example.com', name: 'Ada Lovelace', recipientId: '1', routingOrder: '1', clientUserId, tabs: {
        signerAttachmentTabs: [{ ...at(72, 100), tabLabel: 'Proof of address' }, { ...at(330, 100), tabLabel: 'Extra', optional: 'true' }],
      } }] },
      status: 'sent',
    } });
    const { url } = await api.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email: 'forged@example.com', userName: 'Ada Lovelace', clientUserId } });
    // Plain HTTP, as a script would post: the page's own checks are bypassed.
    const signer = new FormClient(h.origin);
    let answer = await signer.get(url);
    let path = new URL(url).pathname;
    for (let hops = 0; hops < 5 && answer.status >= 300 && answer.status < 400; hops++) {
      path = new URL(String(answer.headers.location), h.origin).pathname;
      answer = await signer.get(path);
    }
    assert.equal(answer.status, 200, answer.text);
    const [required, optional] = [...answer.text.matchAll(/data-attachment="([^"]+)"/g)].map((m) => m[1] ?? '');
    const fields = formFields(answer.text, `${path}/finish`);
    const dataUrl = (mime: string, bytes: Uint8Array | Buffer) => `data:${mime};base64,${Buffer.from(bytes).toString('base64')}`;
    for (const [attachments, status, refusal] of [
      [{ [required!]: dataUrl('image/png', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')) }, 400, /INVALID_TAB_VALUE: .*tab .* \(attachment\): An attachment must be a PDF, PNG or JPEG file/],
      [{ [required!]: dataUrl('image/png', makeBlankPng(8000, 8000)) }, 400, /INVALID_TAB_VALUE: .*8000×8000 pixels; the limit is 6000×6000/],
      [{ [optional!]: dataUrl('application/pdf', await utilityBill()) }, 400, /INVALID_TAB_VALUE: .*tab .* "Proof of address": Attach a file to continue/],
      [{ 'not-a-tab': dataUrl('application/pdf', await utilityBill()) }, 400, /is not yours to attach a file to/],
    ] as const) {
      const refused = await signer.post(`${path}/finish`, { ...fields, attachments: JSON.stringify(attachments) });
      // A refused file is shown on the signing page; a malformed form gets the error page (INVALID_REQUEST_PARAMETER).
      const shown = /<p id="finish-error"[^>]*>([^<]*)</.exec(refused.text)?.[1] ?? /<main>([\s\S]*)<\/main>/.exec(refused.text)?.[1] ?? refused.text;
      assert.equal(refused.status, status, shown);
      assert.match(shown.replace(/&quot;/g, '"'), refusal);
      assert.equal((await api.listRecipients(h.accountId, envelopeId)).signers[0]?.status, 'delivered', 'nothing written');
      const docs = (await api.listDocuments(h.accountId, envelopeId)).envelopeDocuments.filter((d) => d.documentId !== 'certificate');
      assert.deepEqual(docs.map((d) => d.documentId), ['1'], 'no document added');
    }
    const honest = await signer.post(`${path}/finish`, { ...fields, attachments: JSON.stringify({ [required!]: dataUrl('application/pdf', await utilityBill()) }) });
    assert.equal(honest.status, 303, honest.text.slice(0, 500));
    assert.deepEqual((await api.listDocuments(h.accountId, envelopeId)).envelopeDocuments.filter((d) => d.documentId !== 'certificate').map((d) => d.name), ['Lease', 'Proof of address']);
  });
});
