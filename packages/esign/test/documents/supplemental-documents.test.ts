import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { pollUntil } from '@signet/kit';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { signingPageFixture } from '../support/signing-page-fixture.ts';
import { FormClient, formFields } from '../support/form-client.ts';
import { sdkFailure } from '../support/sdk-failure.ts';

// Supplemental documents (DocuSign "Supplemental Documents": Document.display,
// signerMustAcknowledge, includeInDownload) through the real parts: the docusign-esign SDK
// creates and reads them, the server refuses a Finish before the views and acceptances it asks
// for, Chromium shows them as DocuSign does (apart from the pages to sign, keyboard usable), the
// audit trail records them, and includeInDownload false keeps one out of the combined PDFs.

type SdkEnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; display?: string; signerMustAcknowledge?: string; includeInDownload?: string }[] }>;
  getDocument(accountId: string, envelopeId: string, documentId: string, opts?: Record<string, string>): Promise<Buffer>;
  listAuditEvents(accountId: string, envelopeId: string): Promise<{ auditEvents: { eventFields: { name: string; value: string }[] }[] }>;
};
type TemplatesApi = { createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<unknown> };
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => SdkEnvelopesApi; TemplatesApi: new (client: unknown) => TemplatesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingPageFixture();

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });

async function documents() {
  return [
    { documentBase64: b64(await samplePdf(1, 'Loan agreement')), documentId: '1', fileExtension: 'pdf', name: 'Loan agreement' },
    // Seen in a dialog; viewed and accepted before Finish; in the download.
    { documentBase64: b64(await samplePdf(2, 'Terms and conditions')), documentId: '2', fileExtension: 'pdf', name: 'Terms and conditions', display: 'modal', signerMustAcknowledge: 'view_accept' },
    // A file to download; viewed before Finish; left out of the combined download.
    { documentBase64: b64(await samplePdf(1, 'Privacy notice')), documentId: '3', fileExtension: 'pdf', name: 'Privacy notice', display: 'download', signerMustAcknowledge: 'view', includeInDownload: 'false' },
  ];
}

function sdkFor(h: SigningHarness) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return { envelopes: new docusign.EnvelopesApi(client), templates: new docusign.TemplatesApi(client) };
}

async function createEnvelope(h: SigningHarness, sdk: SdkEnvelopesApi, email: string, clientUserId: string): Promise<string> {
  const { envelopeId } = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
    emailSubject: 'Your loan',
    documents: await documents(),
    recipients: { signers: [{ email, name: 'Ada Lovelace', recipientId: '1', routingOrder: '1', clientUserId, tabs: { signHereTabs: [at(72, 640)] } }] },
    status: 'sent',
  } }).catch((err: { response?: { data?: unknown } }) => {
    throw new Error(`createEnvelope refused: ${JSON.stringify(err.response?.data)}`);
  });
  return envelopeId;
}

async function pageCount(pdf: Uint8Array): Promise<number> {
  return (await PDFDocument.load(pdf, { updateMetadata: false })).getPageCount();
}

test('supplemental documents: the wire, the refusals, the server\'s checks at Finish, the audit and the download', async (t) => {
  const h = await startSigningEsign(t, { converter: fx.converter });
  const { envelopes: sdk, templates } = sdkFor(h);

  await t.test('display, signerMustAcknowledge and includeInDownload are kept and read back', async () => {
    const envelopeId = await createEnvelope(h, sdk, 'wire@example.com', 'wire-1');
    const listed = await sdk.listDocuments(h.accountId, envelopeId);
    const byId = new Map(listed.envelopeDocuments.map((d) => [d.documentId, d]));
    assert.deepEqual([byId.get('1')?.display, byId.get('1')?.signerMustAcknowledge, byId.get('1')?.includeInDownload], ['inline', 'no_interaction', 'true']);
    assert.deepEqual([byId.get('2')?.display, byId.get('2')?.signerMustAcknowledge, byId.get('2')?.includeInDownload], ['modal', 'view_accept', 'true']);
    assert.deepEqual([byId.get('3')?.display, byId.get('3')?.signerMustAcknowledge, byId.get('3')?.includeInDownload], ['download', 'view', 'false']);
  });

  await t.test('bad values and what is not built are refused by name, nothing stored', async () => {
    const base = (docs: unknown[], tabs: unknown = { signHereTabs: [at(72, 640)] }) => ({
      emailSubject: 'Refused', documents: docs, status: 'created',
      recipients: { signers: [{ email: 'r@example.com', name: 'R', recipientId: '1', tabs }] },
    });
    const [one] = await documents();
    const cases: [string, unknown, string][] = [
      ['an unknown display', base([one, { ...one, documentId: '2', display: 'popup' }]), 'display'],
      ['an unknown acknowledgement', base([one, { ...one, documentId: '2', display: 'modal', signerMustAcknowledge: 'read' }]), 'signerMustAcknowledge'],
      ['an acknowledgement on an inline document', base([{ ...one, signerMustAcknowledge: 'accept' }]), 'signerMustAcknowledge'],
      ['includeInDownload false on an inline document', base([{ ...one, includeInDownload: 'false' }]), 'includeInDownload'],
      ['a signature on a supplement', base([one, { ...one, documentId: '2', display: 'modal' }], { signHereTabs: [{ ...at(72, 640), documentId: '2' }] }), 'supplemental document'],
    ];
    const before = (await (await h.api('GET', '/envelopes?from_date=2000-01-01')).json()) as { resultSetSize?: string };
    for (const [what, definition, named] of cases) {
      const response = await h.api('POST', '/envelopes', definition);
      const body = (await response.json()) as { errorCode: string; message: string };
      assert.equal(response.status, 400, what);
      assert.equal(body.errorCode, 'INVALID_REQUEST_BODY', what);
      assert.ok(body.message.includes(named), `${what}: ${body.message}`);
    }
    const after = (await (await h.api('GET', '/envelopes?from_date=2000-01-01')).json()) as { resultSetSize?: string };
    assert.equal(after.resultSetSize, before.resultSetSize, 'nothing was stored');
    // Templates keep no supplement settings yet: refused by name, never dropped.
    const [status, code] = await sdkFailure(templates.createTemplate(h.accountId, { envelopeTemplate: { name: 'T', emailSubject: 'T', documents: [one, { ...one, documentId: '2', display: 'modal' }], recipients: { signers: [{ roleName: 'Signer', recipientId: '1', tabs: { signHereTabs: [at(72, 640)] } }] } } }));
    assert.deepEqual([status, code], [400, 'INVALID_REQUEST_BODY']);
  });

  await t.test('a Finish without the views and the acceptance is refused; each is audited; the download leaves out includeInDownload false', async () => {
    const envelopeId = await createEnvelope(h, sdk, 'server@example.com', 'server-1');
    const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: 'https://app.example/done', authenticationMethod: 'none', email: 'server@example.com', userName: 'Ada Lovelace', clientUserId: 'server-1' } });
    const browser = new FormClient(h.origin);
    const redeemed = await browser.get(new URL(url).pathname);
    const path = String(redeemed.headers.location);
    const page = await browser.get(path);
    assert.equal(page.status, 200);
    // Supplements are offered apart, never as pages to sign.
    assert.ok(page.text.includes('Supplemental documents'));
    assert.ok(!/<section class="document" aria-label="Terms and conditions">/.test(page.text), 'the supplement is no page to sign');
    const tabs = [...page.text.matchAll(/data-tab-id="([^"]+)"/g)].map((m) => m[1] ?? '');
    const finish = async (extra: Record<string, string> = {}) => {
      const fresh = await browser.get(path);
      return browser.post(`${path}/finish`, { ...formFields(fresh.text, `${path}/finish`), signatureKind: 'typed', signatureText: 'Ada Lovelace', signedTabs: tabs.join(','), ...extra });
    };
    const errorOf = (html: string) => /<p id="finish-error"[^>]*>([^<]*)</.exec(html)?.[1] ?? '';

    const unviewed = await finish({ 'accept-2': 'true' });
    assert.equal(unviewed.status, 400);
    assert.match(errorOf(unviewed.text), /^Finish was not accepted: SUPPLEMENT_NOT_ACKNOWLEDGED: .*View &quot;Terms and conditions&quot;/);
    // The dialog's pages are the view of a modal supplement; the file is that of a download one.
    assert.equal((await browser.get(`${path}/documents/2/pages/1`)).status, 200);
    const file = await browser.get(`${path}/supplements/3`);
    assert.equal(file.status, 200);
    assert.match(String(file.headers['content-disposition']), /attachment; filename="Privacy notice.pdf"/);
    // An inline document is no supplement to fetch as a file.
    assert.equal((await browser.get(`${path}/supplements/1`)).status, 404);
    const unaccepted = await finish();
    assert.equal(unaccepted.status, 400);
    assert.match(errorOf(unaccepted.text), /Accept &quot;Terms and conditions&quot;/);
    const done = await finish({ 'accept-2': 'true' });
    assert.equal(done.status, 303, done.text);

    const events = (await sdk.listAuditEvents(h.accountId, envelopeId)).auditEvents.map((e) => Object.fromEntries(e.eventFields.map((f) => [f.name, f.value])));
    const actions = events.map((e) => e.Action);
    assert.equal(actions.filter((a) => a === 'Supplement Viewed').length, 2, 'each view once, however often fetched');
    assert.equal(actions.filter((a) => a === 'Supplement Accepted').length, 1);
    assert.ok(events.some((e) => e.Action === 'Supplement Accepted' && String(e.Message).includes('Terms and conditions')));

    await pollUntil(async () => ((await (await h.api('GET', `/envelopes/${envelopeId}`)).json()) as { status: string }).status === 'completed', { timeoutMs: 120_000, intervalMs: 100, what: 'completion' });
    // 1 page to sign + 2 of the modal supplement; the privacy notice (includeInDownload false) is not in it.
    assert.equal(await pageCount(new Uint8Array(await sdk.getDocument(h.accountId, envelopeId, 'combined', { certificate: 'false' }))), 3);
    assert.ok(await pageCount(new Uint8Array(await sdk.getDocument(h.accountId, envelopeId, 'combined'))) > 3, 'with the certificate');
    // The document alone stays downloadable by the sender.
    assert.equal(await pageCount(new Uint8Array(await sdk.getDocument(h.accountId, envelopeId, '3'))), 1);
  });
});

test('the signing page shows supplements apart and asks for them, by keyboard (Chromium)', async (t) => {
  const h = await startSigningEsign(t, { converter: fx.converter });
  const { envelopes: sdk } = sdkFor(h);
  const envelopeId = await createEnvelope(h, sdk, 'page@example.com', 'page-1');
  const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email: 'page@example.com', userName: 'Ada Lovelace', clientUserId: 'page-1' } });
  const context = await fx.browser.newContext({ viewport: { width: 1000, height: 800 }, locale: 'en-US', acceptDownloads: true });
  t.after(() => context.close());
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  const finishButton = page.getByRole('button', { name: 'Finish' });
  await finishButton.waitFor();
  // Only the document to sign is shown as pages; the supplements are listed apart.
  assert.equal(await page.locator('main .document').count(), 1);
  const strip = page.getByRole('region', { name: 'Supplemental documents' });
  await strip.getByText('Terms and conditions', { exact: true }).first().waitFor();
  await page.getByRole('button', { name: 'Sign here' }).press('Enter');
  await page.getByRole('button', { name: 'Adopt and sign' }).click();
  assert.equal(await finishButton.isDisabled(), true, 'the supplements are owed');
  assert.equal((await page.locator('#progress').textContent() ?? '').trim(), '2 documents to view; 1 document to accept', 'signed: only the supplements are owed');

  // The modal one, by keyboard: View opens its dialog (its pages load then), Escape closes it and focus returns.
  const view = strip.getByRole('button', { name: 'View', exact: true });
  await view.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Terms and conditions' });
  await dialog.waitFor();
  await dialog.getByRole('img', { name: 'Terms and conditions, page 2 of 2' }).waitFor();
  await pollUntil(() => page.evaluate<boolean>("[...document.querySelectorAll('.supplement-dialog img')].every((img) => img.naturalWidth > 0)"), { timeoutMs: 30_000, intervalMs: 50, what: 'the supplement page image' });
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(await page.evaluate<string | null>("document.activeElement && document.activeElement.getAttribute('aria-controls')"), 'supplement-dialog-2', 'focus is back on View');
  // Accepting is a checkbox, Space ticks it.
  await page.getByRole('checkbox', { name: 'I accept "Terms and conditions"' }).focus();
  await page.keyboard.press('Space');
  // The download one: its View is a link to the file.
  const download = page.waitForEvent('download');
  await strip.getByRole('link', { name: 'View (download)' }).focus();
  await page.keyboard.press('Enter');
  assert.equal((await download).suggestedFilename(), 'Privacy notice.pdf');
  // A rare CI timeout here (once in ~30 runs) left no clue: on a timeout, say what the page still asks for.
  await finishButton.and(page.locator(':enabled')).waitFor().catch(async (err: Error) => {
    const owed = await page.locator('#progress').textContent().catch(() => '(unreadable)');
    throw new Error(`Finish stayed disabled; the page says: ${JSON.stringify(owed)} (${err.message.split('\n')[0]})`);
  });
  await finishButton.click();
  await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
  assert.deepEqual(errors, []);
});
