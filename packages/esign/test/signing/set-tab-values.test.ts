import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import { pollUntil } from '@signet/kit';
import { signingPageFixture } from '../support/signing-page-fixture.ts';
import { b64, startSigningEsign, type SigningHarness } from './signing-harness.ts';

// DocuSign's setTabValues example (code-examples-node, lib/eSignature/examples/setTabValues.js)
// as it calls the SDK: models built with constructFromObject, a salary letter (docx) with
// anchored text tabs and a Numerical salary tab in dollars (a LocalePolicyTab with currencyCode,
// DocuSign's positive and negative format tokens and useLongCurrencyFormat), the same number
// kept in an envelope custom field, then embedded signing. Then the signer in Chromium, the
// values over the API and the sealed PDF's text; and the currency asks this service refuses.

const run = promisify(execFile);

type Callback = (error: unknown, data: unknown, response: { headers?: Record<string, string> } | undefined) => void;
type WireTab = Record<string, unknown> & { tabLabel?: string; value?: string; numericalValue?: string; localePolicy?: Record<string, string> };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }, callback: Callback): Promise<{ data: { envelopeId: string } }>;
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }, callback: Callback): Promise<{ data: { url: string } }>;
  listTabs(accountId: string, envelopeId: string, recipientId: string): Promise<Record<string, WireTab[] | undefined>>;
  listCustomFields(accountId: string, envelopeId: string): Promise<{ textCustomFields?: { name: string; value: string }[] }>;
  getFormData(accountId: string, envelopeId: string): Promise<{ formData: { name: string; value: string; numericalValue?: string }[] }>;
  getDocument(accountId: string, envelopeId: string, documentId: string, opts?: Record<string, string>): Promise<Buffer>;
  updateTabs(accountId: string, envelopeId: string, recipientId: string, opts: { tabs: unknown }): Promise<Record<string, WireTab[] | undefined>>;
};
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi }
  & Record<'Document' | 'Signer' | 'SignHere' | 'Text' | 'LocalePolicyTab' | 'Numerical' | 'Tabs' | 'TextCustomField' | 'CustomFields' | 'Recipients' | 'EnvelopeDefinition' | 'RecipientViewRequest', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingPageFixture();
const SIGNER = { email: 'sam@example.com', name: 'Sam Salaried', clientUserId: '1000' };
const DOLLARS = {
  cultureName: 'en-US', currencyCode: 'usd', useLongCurrencyFormat: 'true',
  currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89',
};

/** A one-page salary letter with the anchors the example's tabs look for, in white. */
async function salaryLetter(): Promise<Buffer> {
  const line = (text: string, anchor: string) => new Paragraph({ children: [new TextRun(`${text} `), new TextRun({ text: anchor, color: 'FFFFFF' })] });
  return Packer.toBuffer(new DocxDocument({ sections: [{ children: [
    new Paragraph({ children: [new TextRun({ text: 'Offer of employment', bold: true, size: 32 })] }),
    line('Name:', '/legal/'), line('Known as:', '/familiar/'), new Paragraph('Yearly salary:'), new Paragraph(''), line('Signed:', '/sn1/'),
  ] }] }));
}

/** The example's envelope, model by model; `policy` replaces the salary's LocalePolicyTab fields. */
async function salaryEnvelope(policy: Record<string, unknown> = DOLLARS, validationType = 'Currency') {
  const text = (anchorString: string, tabId: string, tabLabel: string) => docusign.Text.constructFromObject({
    anchorString, anchorUnits: 'pixels', anchorXOffset: '5', anchorYOffset: '-9', font: 'helvetica', fontSize: 'size11', bold: 'true', value: SIGNER.name, locked: 'false', tabId, tabLabel,
  });
  const salary = docusign.Numerical.constructFromObject({
    pageNumber: '1', documentId: '1', xPosition: '210', yPosition: '235', height: '20', width: '70', font: 'helvetica', fontSize: 'size11', bold: 'true',
    tabId: 'salary', tabLabel: 'Salary', validationType, numericalValue: '123000', localePolicy: docusign.LocalePolicyTab.constructFromObject(policy),
  });
  const signer = docusign.Signer.constructFromObject({ ...SIGNER, recipientId: 1 });
  signer.tabs = docusign.Tabs.constructFromObject({
    signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorUnits: 'pixels', anchorXOffset: '20', anchorYOffset: '10' })],
    textTabs: [text('/legal/', 'legal_name', 'Legal name'), text('/familiar/', 'familiar_name', 'Familiar name')],
    numericalTabs: [salary],
  });
  return docusign.EnvelopeDefinition.constructFromObject({
    emailSubject: 'Please sign this salary document', status: 'sent',
    documents: [docusign.Document.constructFromObject({ documentBase64: b64(await salaryLetter()), name: 'Lorem Ipsum', fileExtension: 'docx', documentId: '1' })],
    recipients: docusign.Recipients.constructFromObject({ signers: [signer] }),
    customFields: docusign.CustomFields.constructFromObject({ textCustomFields: [docusign.TextCustomField.constructFromObject({ name: 'salary', required: 'false', show: 'true', value: '123000' })] }),
  });
}

function envelopesApi(h: SigningHarness): EnvelopesApi {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return new docusign.EnvelopesApi(client);
}

async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-salary-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    return (await run('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test('setTabValues: the salary in dollars as the sender formats it, on the signing page, over the API and in the sealed PDF; what it cannot honour refused by name', async (t) => {
  const h = await startSigningEsign(t, { converter: fx.converter });
  const api = envelopesApi(h);
  const heard: unknown[] = [];
  const callback: Callback = (error, data) => heard.push(error ?? data);

  await t.test('the example runs unchanged: created, viewed, and the salary is $123,000.00 USD with its number 123000', async () => {
    const created = await api.createEnvelope(h.accountId, { envelopeDefinition: await salaryEnvelope() }, callback).catch((e: { response?: { data?: unknown } }) => assert.fail(`createEnvelope refused: ${JSON.stringify(e.response?.data)}`));
    const { envelopeId } = created.data;
    const view = await api.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: docusign.RecipientViewRequest.constructFromObject({
      returnUrl: fx.returnUrl, authenticationMethod: 'none', email: SIGNER.email, userName: SIGNER.name, clientUserId: SIGNER.clientUserId,
    }) }, callback);
    assert.equal(heard.length, 2, 'the SDK called back for both calls');

    const [salary] = (await api.listTabs(h.accountId, envelopeId, '1')).numericalTabs ?? [];
    assert.deepEqual([salary?.tabLabel, salary?.value, salary?.numericalValue, { ...salary?.localePolicy }], ['Salary', '$123,000.00 USD', '123000', DOLLARS]);
    assert.deepEqual((await api.listCustomFields(h.accountId, envelopeId)).textCustomFields?.map((f) => [f.name, f.value]), [['salary', '123000']]);

    // The signer sees the amount formatted and, typing a new one plainly, sees it formatted too.
    const context = await fx.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(view.data.url);
    const field = page.getByLabel('Salary');
    assert.equal(await field.inputValue(), '$123,000.00 USD');
    await field.fill('125000.5');
    await field.press('Tab');
    assert.equal(await field.inputValue(), '$125,000.50 USD');
    assert.equal(await page.getByLabel('Legal name').inputValue(), SIGNER.name);
    await page.getByRole('button', { name: 'Sign here' }).press('Enter');
    await page.getByRole('button', { name: 'Adopt and sign' }).click();
    await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).click();
    await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
    assert.deepEqual(errors, []);
    await context.close();

    // Over the API the value is the formatted amount, numericalValue the plain number.
    const data = await api.getFormData(h.accountId, envelopeId);
    assert.deepEqual({ ...data.formData.find((f) => f.name === 'Salary') }, { name: 'Salary', value: '$125,000.50 USD', numericalValue: '125000.5' });
    await pollUntil(async () => (await h.api('GET', `/envelopes/${envelopeId}`).then((r) => r.json()) as { status: string }).status === 'completed', { timeoutMs: 120_000, intervalMs: 100, what: 'completion' });
    const text = (await pdfText(new Uint8Array(await api.getDocument(h.accountId, envelopeId, '1')))).replace(/[ \t]+/g, ' ');
    assert.ok(text.includes('$125,000.50 USD'), `the sealed letter shows the salary as formatted:\n${text}`);
    assert.ok(text.includes(SIGNER.name));
  });

  await t.test('updateTabs: a new numericalValue is written in the tab\'s format; a new format rewrites the stored number', async () => {
    const { envelopeId } = (await api.createEnvelope(h.accountId, { envelopeDefinition: await salaryEnvelope() }, callback)).data;
    const [stored] = (await api.listTabs(h.accountId, envelopeId, '1')).numericalTabs ?? [];
    const changed = await api.updateTabs(h.accountId, envelopeId, '1', { tabs: { numericalTabs: [{ tabId: stored?.tabId, numericalValue: '-2500.5' }] } });
    assert.deepEqual([changed.numericalTabs?.[0]?.value, changed.numericalTabs?.[0]?.numericalValue], ['-$2,500.50 USD', '-2500.5']);
    const euros = { cultureName: 'de-DE', currencyCode: 'eur', currencyPositiveFormat: '1_period_234_period_567_comma_89_csym', currencyNegativeFormat: 'opar_1_period_234_period_567_comma_89_csym_cpar' };
    const moved = await api.updateTabs(h.accountId, envelopeId, '1', { tabs: { numericalTabs: [{ tabId: stored?.tabId, localePolicy: euros }] } });
    assert.deepEqual([moved.numericalTabs?.[0]?.value, moved.numericalTabs?.[0]?.numericalValue], ['(2.500,50€)', '-2500.5']);
  });

  await t.test('a currency ask this service cannot honour is refused whole, naming it', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...DOLLARS, currencyCode: 'usx' }, 'Currency', /numericalTabs\[0\]\.localePolicy\.currencyCode is not an ISO 4217 currency code this service knows, got "usx"/],
      [{ ...DOLLARS, currencyPositiveFormat: 'csym_1_apos_234_apos_567_period_89' }, 'Currency', /currencyPositiveFormat "csym_1_apos_234_apos_567_period_89" does not spell the digits/],
      [{ ...DOLLARS, currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567' }, 'Currency', /currencyNegativeFormat "minus_csym_1_comma_234_comma_567" writes whole amounts/],
      [DOLLARS, 'Number', /currencyCode, currencyPositiveFormat, currencyNegativeFormat, useLongCurrencyFormat: currency formats apply only to a numerical tab whose validationType is Currency/],
      [{ ...DOLLARS, timeZone: 'UTC' }, 'Currency', /not supported: timeZone/],
    ];
    for (const [policy, validationType, why] of cases) {
      const refusal = await api.createEnvelope(h.accountId, { envelopeDefinition: await salaryEnvelope(policy, validationType) }, callback)
        .then(() => assert.fail(`accepted: ${JSON.stringify(policy)}`), (e: { response?: { status?: number; data?: { errorCode?: string; message?: string } } }) => e.response);
      assert.equal(refusal?.status, 400);
      assert.equal(refusal?.data?.errorCode, 'INVALID_REQUEST_BODY');
      assert.match(refusal?.data?.message ?? '', why);
    }
  });
});
