import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { startSigningEsign } from './signing-harness.ts';
import { signingPageFixture } from '../support/signing-page-fixture.ts';

// DocuSign's collectPayment example (github docusign/code-examples-node,
// lib/eSignature/examples/collectPayment.js): an html order form whose anchors place two quantity
// lists, two line formulas, a total and a hidden payment formula. Its tabs are made here with
// the SDK's model constructors and the same arguments (nothing of the example is copied); the
// signer chooses quantities in Chromium and the formulas follow. The payment itself
// (`paymentDetails`) is refused by name: no payment gateway runs here.

const run = promisify(execFile);
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  EnvelopesApi: new (c: unknown) => {
    createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string }>;
    createRecipientView(accountId: string, envelopeId: string, opts: unknown): Promise<{ url: string }>;
    getFormData(accountId: string, envelopeId: string): Promise<{ recipientFormData?: { formData?: { name: string; value: string }[] }[] }>;
    getDocument(accountId: string, envelopeId: string, documentId: string): Promise<Buffer>;
    listRecipients(accountId: string, envelopeId: string): Promise<{ signers: { status: string }[] }>;
  };
} & Record<'Document' | 'Signer' | 'CarbonCopy' | 'SignHere' | 'List' | 'ListItem' | 'FormulaTab' | 'PaymentLineItem' | 'PaymentDetails' | 'Tabs' | 'Recipients' | 'EnvelopeDefinition', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingPageFixture();

// An order form of our own with the example's anchors: quantities in black, the rest in white.
const ORDER_FORM = `<!DOCTYPE html><html><body style="font-family:sans-serif;margin:2em;line-height:1.5">
<h1>World Wide Corp</h1><p>Ordered by Pat Payer</p>
<table><tr><th>Item</th><th>Quantity</th><th>Each</th><th>Extended</th></tr>
<tr><td>Harmonica</td><td>/l1q/</td><td>$5</td><td>$<span style="color:white">/l1e/</span></td></tr>
<tr><td>Xylophone</td><td>/l2q/</td><td>$150</td><td>$<span style="color:white">/l2e/</span></td></tr>
<tr><td colspan="3">Total:</td><td>$<span style="color:white">/l3t/</span></td></tr></table>
<h3 style="margin-top:3em">Agreed: <span style="color:white">/sn1/</span></h3></body></html>`;

/** The example's tabs: the signHere, the two quantity lists, the line and total formulas, the hidden payment formula. */
function exampleTabs(withPayment: boolean) {
  const items = ['none', '1', '2', '3', '4', '5', '6', '7', '8', '9', '10'].map((text, i) => docusign.ListItem.constructFromObject({ text, value: String(i) }));
  const list = (anchorString: string, tabLabel: string) => docusign.List.constructFromObject({ font: 'helvetica', fontSize: 'size11', anchorString, anchorYOffset: '-10', anchorUnits: 'pixels', anchorXOffset: '0', listItems: items, required: 'true', tabLabel });
  const formula = (anchorString: string, tabLabel: string, formula: string, extra: Record<string, string> = {}) => docusign.FormulaTab.constructFromObject({
    font: 'helvetica', fontSize: 'size11', anchorString, anchorYOffset: '-8', anchorUnits: 'pixels', anchorXOffset: '105', tabLabel, formula,
    roundDecimalPlaces: '0', required: 'true', locked: 'true', disableAutoSize: 'false', ...extra,
  });
  const paymentDetails = docusign.PaymentDetails.constructFromObject({
    gatewayAccountId: 'gateway-account', currencyCode: 'USD', gatewayName: 'Stripe', gatewayDisplayName: 'Stripe',
    lineItems: [docusign.PaymentLineItem.constructFromObject({ name: 'Harmonica', description: '$5 each', amountReference: 'l1e' }), docusign.PaymentLineItem.constructFromObject({ name: 'Xylophone', description: '$150 each', amountReference: 'l2e' })],
  });
  const payment = docusign.FormulaTab.constructFromObject({
    tabLabel: 'payment', formula: '([l1e] + [l2e]) * 100', roundDecimalPlaces: '0', ...(withPayment ? { paymentDetails } : {}),
    hidden: 'true', required: 'true', locked: 'true', documentId: '1', pageNumber: '1', xPosition: '0', yPosition: '0',
  });
  return docusign.Tabs.constructFromObject({
    signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' })],
    listTabs: [list('/l1q/', 'l1q'), list('/l2q/', 'l2q')],
    formulaTabs: [formula('/l1e/', 'l1e', '[l1q] * 5'), formula('/l2e/', 'l2e', '[l2q] * 150'), formula('/l3t/', 'l3t', '[l1e] + [l2e]', { bold: 'true', fontSize: 'size12', anchorXOffset: '50' }), payment],
  });
}

function envelope(withPayment: boolean, clientUserId: string) {
  const doc = docusign.Document.constructFromObject({ documentBase64: Buffer.from(ORDER_FORM).toString('base64'), name: 'Order form', fileExtension: 'html', documentId: '1' });
  // clientUserId only so that the test can open the signing page; the tabs are the example's.
  const signer = docusign.Signer.constructFromObject({ email: 'pat@example.com', name: 'Pat Payer', recipientId: '1', routingOrder: '1', clientUserId, tabs: exampleTabs(withPayment) });
  const cc = docusign.CarbonCopy.constructFromObject({ email: 'cc@example.com', name: 'Carl Copy', routingOrder: '2', recipientId: '2' });
  return docusign.EnvelopeDefinition.constructFromObject({ emailSubject: 'Please complete your order', documents: [doc], recipients: docusign.Recipients.constructFromObject({ signers: [signer], carbonCopies: [cc] }), status: 'sent' });
}

test('collectPayment\'s tabs through the SDK: quantities chosen in Chromium (desktop, phone), formulas follow, form data and the completed PDF; its paymentDetails refused by name', async (t) => {
  const h = await startSigningEsign(t, { converter: fx.converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  const api = new docusign.EnvelopesApi(client);

  await t.test('the payment itself is refused with its name and why; nothing is stored', async () => {
    type Refusal = { status: number; body?: { errorCode: string; message: string }; data?: { errorCode: string; message: string } };
    const refused = await api.createEnvelope(h.accountId, { envelopeDefinition: envelope(true, 'pat-0') }).then(() => undefined, (err: { response?: Refusal }) => err.response);
    const body = refused?.body ?? refused?.data;
    assert.equal(refused?.status, 400);
    assert.equal(body?.errorCode, 'INVALID_REQUEST_BODY');
    assert.match(body?.message ?? '', /formulaTabs\[3\] not supported: paymentDetails \(payments are not supported: no payment gateway runs here\)/);
    const listed = await h.api('GET', '/envelopes?from_date=2000-01-01').then((r) => r.json()) as { resultSetSize?: string };
    assert.equal(listed.resultSetSize, '0');
  });

  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]] as const) {
    await t.test(name, async () => {
      const clientUserId = `pat-${name}`;
      const { envelopeId } = await api.createEnvelope(h.accountId, { envelopeDefinition: envelope(false, clientUserId) });
      const { url } = await api.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email: 'pat@example.com', userName: 'Pat Payer', clientUserId } });
      const context = await fx.browser.newContext({ viewport, locale: 'en-US' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(url);
      await page.getByRole('button', { name: 'Finish' }).waitFor();
      await page.getByLabel('l1q').selectOption('2');
      await page.getByLabel('l2q').selectOption('1');
      assert.equal(await page.getByLabel('l1e').textContent(), '10');
      assert.equal(await page.getByLabel('l3t').textContent(), '160', 'the total follows the lists');
      await page.getByRole('button', { name: 'Sign here' }).click();
      await page.getByRole('button', { name: 'Adopt and sign' }).click();
      if (name === 'phone') assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 360, 'no horizontal scroll');
      await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).click();
      await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
      assert.deepEqual(errors, []);
      await context.close();

      const data = await api.getFormData(h.accountId, envelopeId);
      const values = Object.fromEntries((data.recipientFormData?.[0]?.formData ?? []).map((e) => [e.name, e.value]));
      assert.deepEqual([values.l1q, values.l2q, values.l1e, values.l2e, values.l3t, values.payment], ['2', '1', '10', '150', '160', '16000']);
      await pollUntil(async () => (await api.listRecipients(h.accountId, envelopeId)).signers[0]?.status === 'completed' && (await h.api('GET', `/envelopes/${envelopeId}`).then((r) => r.json()) as { status: string }).status === 'completed', { timeoutMs: 120_000, intervalMs: 100, what: 'completion' });
      const dir = await mkdtemp(join(tmpdir(), 'signet-payment-'));
      try {
        await writeFile(join(dir, 'order.pdf'), await api.getDocument(h.accountId, envelopeId, '1'));
        // The signature's caption carries the signing time ("… at 2026-11-27 07:51:10 UTC"): its
        // digits are not amounts, and counted, they failed this test whenever a field read 10.
        const text = (await run('pdftotext', ['-layout', join(dir, 'order.pdf'), '-'])).stdout.replace(/Signed by .*? UTC/g, '');
        // The form itself prints $150 (the xylophone's price): the drawn line amount is a second 150.
        for (const [shown, times] of [['160', 1], ['150', 2], ['10', 1]] as const) assert.equal(text.match(new RegExp(`\\b${shown}\\b`, 'g'))?.length, times, `the completed PDF shows ${shown}`);
        assert.doesNotMatch(text, /16000/, 'the hidden payment formula is not drawn');
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
