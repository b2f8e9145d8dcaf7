// Sender, edit, correct and console views (docs/esign-views.md): single-use URLs that sign the API's user
// into the console's page of a draft, through the official SDK as DocuSign's embeddedSending and
// embeddedConsole examples (github docusign/code-examples-node, lib/eSignature/examples) call it,
// in Chromium: the current embeddedSending (three documents, an EnvelopeViewRequest with every
// setting, startingScreen from its form: "Prepare" opens, "Tagger" is refused) and its older form
// (no body); refusals by name; the attacks: reuse, another account, a forged view.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildConverter, type Converter } from '@signet/pdf';
import { makeDocx } from '../../../pdf/test/documents.fixture.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { secondAccount } from '../support/second-account.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

type Model = (new () => Record<string, unknown>) & { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
  createSenderView(accountId: string, envelopeId: string, opts: unknown): Promise<{ url: string }>;
  createEditView(accountId: string, envelopeId: string, opts: unknown): Promise<{ url: string }>;
  createConsoleView(accountId: string, opts: unknown): Promise<{ url: string }>;
  createCorrectView(accountId: string, envelopeId: string, opts: unknown): Promise<{ url: string }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi }
  & Record<'EnvelopeDefinition' | 'Document' | 'Signer' | 'CarbonCopy' | 'SignHere' | 'Tabs' | 'Recipients' | 'EnvelopeViewRequest' | 'EnvelopeViewSettings' | 'ConsoleViewRequest'
    | 'EnvelopeViewRecipientSettings' | 'EnvelopeViewDocumentSettings' | 'EnvelopeViewTaggerSettings' | 'EnvelopeViewTemplateSettings', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let browser: Browser;
let converter: Converter;
before(async () => {
  [browser, converter] = await Promise.all([launchChromium(), buildConverter({ officeWorkers: 1, htmlPages: 1 })]);
});
after(async () => {
  await browser.close();
  await converter.close();
});

let h: SigningHarness;
let smtp: SmtpListener;
let api: EnvelopesApi;
let appPort: number;

/** A draft as the embeddedSending example builds it: a signer with a SignHere by anchor, a cc after. */
async function draft(signerEmail = 'signer@example.com'): Promise<string> {
  const env = new docusign.EnvelopeDefinition();
  env.emailSubject = 'Please sign this document set';
  env.documents = [docusign.Document.constructFromObject({ documentBase64: b64(await samplePdf(1, '/sn1/')), name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '3' })];
  const signer1 = docusign.Signer.constructFromObject({ email: signerEmail, name: 'Sam Signer', recipientId: '1', routingOrder: '1' });
  signer1.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' })] });
  const cc1 = new docusign.CarbonCopy();
  Object.assign(cc1, { email: 'cc@example.com', name: 'Carl Copy', routingOrder: '2', recipientId: '2' });
  env.recipients = docusign.Recipients.constructFromObject({ signers: [signer1], carbonCopies: [cc1] });
  env.status = 'created';
  return (await api.createEnvelope(h.accountId, { envelopeDefinition: env })).envelopeId;
}

/**
 * The current embeddedSending example's draft: an html document (its anchor in white), a docx and
 * a pdf (both with /sn1/), in that order; the signer signs by both anchors; a cc after.
 */
async function exampleDraft(signerEmail: string): Promise<string> {
  const html = '<!doctype html><html><body><h1>Order acknowledgement</h1><p>Ordered by Sam Signer.</p><p>Agreed: <span style="color:#fff">**signature_1**</span></p></body></html>';
  const env = new docusign.EnvelopeDefinition();
  env.emailSubject = 'Please sign this document set';
  const doc1 = new docusign.Document();
  Object.assign(doc1, { documentBase64: b64(Buffer.from(html)), name: 'Order acknowledgement', fileExtension: 'html', documentId: '1' });
  const doc2 = docusign.Document.constructFromObject({ documentBase64: b64(await makeDocx('Battle Plan')), name: 'Battle Plan', fileExtension: 'docx', documentId: '2' });
  const doc3 = docusign.Document.constructFromObject({ documentBase64: b64(await samplePdf(1, 'Lorem Ipsum /sn1/')), name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '3' });
  env.documents = [doc1, doc2, doc3];
  const signer1 = docusign.Signer.constructFromObject({ email: signerEmail, name: 'Sam Signer', recipientId: '1', routingOrder: '1' });
  const cc1 = new docusign.CarbonCopy();
  Object.assign(cc1, { email: 'cc@example.com', name: 'Carl Copy', routingOrder: '2', recipientId: '2' });
  const byAnchor = (anchorString: string) => docusign.SignHere.constructFromObject({ anchorString, anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' });
  signer1.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [byAnchor('**signature_1**'), byAnchor('/sn1/')] });
  env.recipients = docusign.Recipients.constructFromObject({ signers: [signer1], carbonCopies: [cc1] });
  env.status = 'created';
  return (await api.createEnvelope(h.accountId, { envelopeDefinition: env })).envelopeId;
}

/** The current embeddedSending example's EnvelopeViewRequest; `startingView` is its form's choice, "Tagger" or "Prepare". */
function exampleViewRequest(startingView: string, dsReturnUrl: string): Record<string, unknown> {
  return docusign.EnvelopeViewRequest.constructFromObject({
    returnUrl: dsReturnUrl,
    viewAccess: 'envelope',
    settings: docusign.EnvelopeViewSettings.constructFromObject({
      startingScreen: startingView,
      sendButtonAction: 'send',
      showBackButton: 'false',
      backButtonAction: 'previousPage',
      showHeaderActions: 'false',
      showDiscardAction: 'false',
      lockToken: '',
      recipientSettings: docusign.EnvelopeViewRecipientSettings.constructFromObject({ showEditRecipients: 'false', showContactsList: 'false' }),
      documentSettings: docusign.EnvelopeViewDocumentSettings.constructFromObject({ showEditDocuments: 'false', showEditDocumentVisibility: 'false', showEditPages: 'false' }),
      taggerSettings: docusign.EnvelopeViewTaggerSettings.constructFromObject({ paletteSections: 'default', paletteDefault: 'custom' }),
      templateSettings: docusign.EnvelopeViewTemplateSettings.constructFromObject({ showMatchingTemplatesPrompt: 'true' }),
    }),
  });
}

async function open(st: { after(fn: () => Promise<void>): void }, url: string): Promise<Page> {
  const context = await browser.newContext();
  st.after(() => context.close());
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

async function errorOf(call: Promise<unknown>): Promise<{ status: number; errorCode: string; message: string }> {
  try {
    await call;
  } catch (err) {
    // The SDK rejects with axios' error.
    const r = (err as { response?: { status: number; data: { errorCode: string; message: string } } }).response;
    assert.ok(r, String(err));
    return { status: r.status, errorCode: r.data.errorCode, message: r.data.message };
  }
  throw new Error('the call succeeded');
}

test('sender, edit, correct and console views', async (t) => {
  smtp = await startSmtpListener(t);
  h = await startSigningEsign(t, { converter, smtpUrl: smtp.url });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  api = new docusign.EnvelopesApi(client);
  // The integrator's return page; where the browser lands is read from the page's URL.
  const app = createServer((_req, res) => res.end('back at the app'));
  appPort = await listenOnLoopback(app);
  t.after(() => new Promise<void>((resolve) => app.close(() => resolve())));
  const returnUrl = `http://127.0.0.1:${appPort}/ds-return?state=7`;

  await t.test('embeddedSending as the example calls it, its form on "Prepare view": the three documents\' draft page, signed in, sends it and returns to the app', async (st) => {
    const envelopeId = await exampleDraft('prepare@example.com');
    // The example's call, with every setting it sends: the tagger's palette and the
    // matching-templates prompt configure nothing this page shows, so they are accepted.
    const { url } = await api.createSenderView(h.accountId, envelopeId, { envelopeViewRequest: exampleViewRequest('Prepare', returnUrl) });
    assert.match(url, /\/console\/view\/[A-Za-z0-9_-]+\?send=1$/);
    const page = await open(st, url);
    await page.getByRole('heading', { name: 'Please sign this document set' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/console/envelopes/${envelopeId}`);
    type Row = { cells: ArrayLike<{ textContent: string | null }> };
    const cells: string[][] = await page.locator('tr[data-recipient]').evaluateAll((rows: unknown[]) => rows.map((row) => Array.from((row as Row).cells, (c) => c.textContent ?? '')));
    // Fields: a SignHere on the html document's anchor, one on each of the docx's and the pdf's.
    assert.deepEqual(cells, [['1', 'Signer', 'Sam Signer', 'prepare@example.com', '3', 'created'], ['2', 'Carbon copy', 'Carl Copy', 'cc@example.com', '0', 'created']]);
    for (const name of ['Order acknowledgement', 'Battle Plan', 'Lorem Ipsum']) await page.getByRole('img', { name: `${name}, page 1` }).waitFor();
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL((u) => u.port === String(appPort));
    assert.equal(new URL(page.url()).searchParams.get('event'), 'Send');
    assert.equal((await api.getEnvelope(h.accountId, envelopeId)).status, 'sent');
    await pollUntil(() => smtp.received.find((m) => /prepare@example\.com/.test(JSON.stringify(m.to)) && /Please sign/.test(m.subject ?? '')), { timeoutMs: 15_000, intervalMs: 25, what: 'the signing mail' });
    assert.equal((await fetch(url, { redirect: 'manual' })).status, 410, 'the URL was single-use');
  });

  await t.test('embeddedSending as the example calls it, its form on "Tagging view": refused by its starting screen alone, nothing opened', async () => {
    const envelopeId = await exampleDraft('tagger@example.com');
    const e = await errorOf(api.createSenderView(h.accountId, envelopeId, { envelopeViewRequest: exampleViewRequest('Tagger', returnUrl) }));
    assert.deepEqual(e, {
      status: 400,
      errorCode: 'INVALID_REQUEST_BODY',
      message: 'The request body is missing or improperly formatted. EnvelopeViewRequest: not supported: settings.startingScreen "Tagger" (the tagger (placing fields in the browser) is not offered; place tabs through the API, by anchor or position).',
    });
    assert.equal((await api.getEnvelope(h.accountId, envelopeId)).status, 'created');
  });

  await t.test('the older embeddedSending call ({returnUrlRequest}, which docusign-esign 10 sends as no body): the draft page, signed in, sends it', async (st) => {
    const envelopeId = await draft();
    // Older versions of the example passed `{ returnUrlRequest }`. docusign-esign 10 has no
    // ReturnUrlRequest model any more and reads `envelopeViewRequest`, so the same call with a
    // plain object sends no body at all: the view must still open.
    const { url } = await api.createSenderView(h.accountId, envelopeId, { returnUrlRequest: { returnUrl } });
    assert.match(url, /\/console\/view\/[A-Za-z0-9_-]+\?send=1$/);
    const page = await open(st, url.replace('send=1', 'send=0'));
    await page.getByRole('heading', { name: 'Please sign this document set' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/console/envelopes/${envelopeId}`);
    const rows = await page.locator('tr[data-recipient]').allTextContents();
    assert.equal(rows.length, 2);
    assert.match(rows[0] ?? '', /Signer.*Sam Signer.*signer@example\.com/s);
    assert.match(rows[1] ?? '', /Carbon copy.*Carl Copy/s);
    await page.getByRole('img', { name: 'Lorem Ipsum, page 1' }).waitFor();
    assert.ok(await page.getByRole('img', { name: 'Lorem Ipsum, page 1' }).evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth > 0), 'the page image loads');
    await page.getByRole('button', { name: 'Send' }).click();
    // No returnUrl reached the server: the page stays in the console and shows the envelope sent.
    await pollUntil(async () => ((await page.locator('[data-field=status]').textContent()) === 'sent' ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: 'status sent on the page' });
    assert.equal((await api.getEnvelope(h.accountId, envelopeId)).status, 'sent');
    await pollUntil(() => smtp.received.find((m) => /signer@example\.com/.test(JSON.stringify(m.to)) && /Please sign/.test(m.subject ?? '')), { timeoutMs: 15_000, intervalMs: 25, what: 'the signing mail' });
    // The URL was single-use.
    const again = await fetch(url, { redirect: 'manual' });
    assert.equal(again.status, 410);
  });

  await t.test('EnvelopeViewRequest with returnUrl and settings: Send → event=Send; Save and close → event=Save; sendButtonAction redirect → event=Send, unsent', async (st) => {
    const settings = docusign.EnvelopeViewSettings.constructFromObject({ startingScreen: 'Prepare', sendButtonAction: 'send', showBackButton: 'false', showHeaderActions: 'false', showDiscardAction: 'false', lockToken: '' });
    const request = docusign.EnvelopeViewRequest.constructFromObject({ returnUrl, viewAccess: 'envelope', settings });
    for (const [button, action, event, status] of [['Send', 'send', 'Send', 'sent'], ['Save and close', 'send', 'Save', 'created'], ['Send', 'redirect', 'Send', 'created']] as const) {
      const envelopeId = await draft();
      const { url } = await api.createSenderView(h.accountId, envelopeId, { envelopeViewRequest: { ...request, settings: { ...settings, sendButtonAction: action } } });
      const page = await open(st, url);
      await page.getByRole('button', { name: button }).click();
      await page.waitForURL((u) => u.port === String(appPort));
      const back = new URL(page.url());
      assert.equal(back.searchParams.get('event'), event, `${button} (${action})`);
      assert.equal(back.searchParams.get('state'), '7');
      assert.equal((await api.getEnvelope(h.accountId, envelopeId)).status, status, `${button} (${action})`);
    }
    // createEditView opens the same page.
    const envelopeId = await draft();
    const { url } = await api.createEditView(h.accountId, envelopeId, { envelopeViewRequest: { returnUrl } });
    const page = await open(st, url);
    await page.getByRole('button', { name: 'Send' }).waitFor();
  });

  await t.test('createConsoleView as the embeddedConsole example calls it: the envelope page, or the console home', async (st) => {
    const envelopeId = await draft();
    const request = new docusign.ConsoleViewRequest();
    request.returnUrl = returnUrl;
    request.envelopeId = envelopeId;
    const page = await open(st, (await api.createConsoleView(h.accountId, { consoleViewRequest: request })).url);
    await page.getByRole('heading', { name: 'Please sign this document set' }).waitFor();
    const home = await open(st, (await api.createConsoleView(h.accountId, { consoleViewRequest: docusign.ConsoleViewRequest.constructFromObject({ returnUrl }) })).url);
    assert.equal(new URL(home.url()).pathname, '/console');
  });

  await t.test('what the page cannot do is refused by name; sent envelopes, other accounts and correct views too', async () => {
    const envelopeId = await draft();
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ returnUrl, settings: { startingScreen: 'Tagger' } }, /settings\.startingScreen "Tagger" \(the tagger/],
      [{ returnUrl, settings: { recipientSettings: { showEditRecipients: 'true' } } }, /settings\.recipientSettings\.showEditRecipients "true"/],
      [{ returnUrl, settings: { showHeaderActions: true, documentSettings: { showEditDocuments: 'true' } } }, /showHeaderActions true.*showEditDocuments "true"/],
      [{ returnUrl, settings: { lockToken: 'abc' } }, /lockToken "abc"/],
      [{ returnUrl, viewAccess: 'template' }, /viewAccess "template"/],
      // The palette of a tagger DocuSign would start on, no starting screen given.
      [{ returnUrl, settings: { taggerSettings: { paletteDefault: 'custom' } } }, /settings\.taggerSettings \{"paletteDefault":"custom"\} without startingScreen \(DocuSign then starts on the tagger, which is not offered: set startingScreen "Prepare"\)/],
      [{ returnUrl, settings: { startingScreen: 'Prepare', taggerSettings: 'custom', templateSettings: { showMatchingTemplatesPrompt: 'sometimes' } } }, /settings\.taggerSettings "custom" \(must be an object\); settings\.templateSettings\.showMatchingTemplatesPrompt "sometimes" \(must be true or false\)/],
    ];
    for (const [body, message] of cases) {
      const e = await errorOf(api.createSenderView(h.accountId, envelopeId, { envelopeViewRequest: body }));
      assert.equal(e.status, 400);
      assert.equal(e.errorCode, 'INVALID_REQUEST_BODY');
      assert.match(e.message, message);
    }
    const sent = await draft();
    assert.equal((await h.api('PUT', `/envelopes/${sent}`, { status: 'sent' })).status, 200);
    assert.equal((await errorOf(api.createSenderView(h.accountId, sent, { envelopeViewRequest: { returnUrl } }))).errorCode, 'ENVELOPE_INVALID_STATUS');
    assert.equal((await errorOf(api.createCorrectView(h.accountId, envelopeId, { envelopeViewRequest: { returnUrl } }))).errorCode, 'ENVELOPE_INVALID_STATUS', 'a draft is edited, not corrected');
    assert.match((await errorOf(api.createCorrectView(h.accountId, sent, { envelopeViewRequest: { returnUrl, beginOnTagger: 'true' } }))).message, /beginOnTagger "true" \(the tagger is not offered/);
    // The tenant next door: neither its token on our envelope nor a console view naming it.
    const other = await secondAccount(h);
    const theirs = await fetch(`${h.origin}/restapi/v2.1/accounts/${other.accountId}/envelopes/${envelopeId}/views/sender`, { method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ returnUrl }) });
    assert.equal(((await theirs.json()) as { errorCode: string }).errorCode, 'ENVELOPE_DOES_NOT_EXIST');
    const consoleView = await fetch(`${h.origin}/restapi/v2.1/accounts/${other.accountId}/views/console`, { method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ returnUrl, envelopeId }) });
    assert.equal(((await consoleView.json()) as { errorCode: string }).errorCode, 'ENVELOPE_DOES_NOT_EXIST');
  });

  await t.test('createCorrectView: an envelope in process, its unsigned signer corrected through the page (fresh mail, old link dead), Done → event=Save', async (st) => {
    const envelopeId = await draft('wrong@example.com');
    assert.equal((await h.api('PUT', `/envelopes/${envelopeId}`, { status: 'sent' })).status, 200);
    const first = await pollUntil(() => smtp.received.find((m) => /wrong@example\.com/.test(JSON.stringify(m.to))), { timeoutMs: 15_000, intervalMs: 25, what: 'the first mail' });
    const oldLink = /^(https?:\/\/\S+\/signing\/\S+)$/m.exec(first.text ?? '')?.[1] ?? assert.fail('a signing link');
    const { url } = await api.createCorrectView(h.accountId, envelopeId, { envelopeViewRequest: { returnUrl } });
    const page = await open(st, url);
    await page.getByLabel('E-mail').first().fill('right@example.com');
    await page.getByRole('button', { name: 'Correct Sam Signer' }).click();
    await page.getByRole('cell', { name: 'right@example.com', exact: true }).waitFor();
    await pollUntil(() => smtp.received.find((m) => /right@example\.com/.test(JSON.stringify(m.to)) && /Please sign/.test(m.subject ?? '')), { timeoutMs: 15_000, intervalMs: 25, what: 'the mail to the corrected address' });
    assert.equal((await fetch(oldLink)).status, 404, 'the old address\'s link is dead');
    await page.getByRole('button', { name: 'Done' }).click();
    await page.waitForURL((u) => u.port === String(appPort));
    assert.equal(new URL(page.url()).searchParams.get('event'), 'Save');
  });

  await t.test("another account's user signed in sees none of our envelope, and another envelope's view id in a form sends nobody to its returnUrl", async (st) => {
    const envelopeId = await draft();
    const other = await secondAccount(h);
    // Their own console view signs them in; then they try our envelope's page and actions.
    const res = await fetch(`${h.origin}/restapi/v2.1/accounts/${other.accountId}/views/console`, { method: 'POST', headers: { authorization: `Bearer ${other.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ returnUrl }) });
    const page = await open(st, ((await res.json()) as { url: string }).url);
    assert.equal(new URL(page.url()).pathname, '/console');
    const ours = await page.goto(`${h.origin}/console/envelopes/${envelopeId}`);
    assert.equal(ours?.status(), 400);
    assert.doesNotMatch(await page.content(), /Please sign this document set/);
    const image = await page.goto(`${h.origin}/console/envelopes/${envelopeId}/documents/3/pages/1`);
    assert.notEqual(image?.status(), 200);
    // A view id of another envelope in the form: ignored, nothing redirects to its returnUrl.
    const mine = await api.createSenderView(h.accountId, envelopeId, { envelopeViewRequest: { returnUrl: 'https://evil.example/steal' } });
    const victim = await open(st, mine.url);
    const viewId = new URL(victim.url()).searchParams.get('view') ?? '';
    const second = await draft();
    const page2 = await open(st, (await api.createSenderView(h.accountId, second, { envelopeViewRequest: { returnUrl } })).url);
    await page2.locator('input[name=view]').evaluateAll((inputs, id: string) => inputs.forEach((input) => { (input as unknown as { value: string }).value = id; }), viewId);
    await page2.getByRole('button', { name: 'Save and close' }).click();
    await page2.waitForURL((u) => u.pathname === '/console');
  });
});
