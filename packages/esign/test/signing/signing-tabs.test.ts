import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { pollUntil } from '@signet/kit';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from './signing-harness.ts';
import { signingPageFixture } from '../support/signing-page-fixture.ts';

// The whole tab ceremony through the real parts: the docusign-esign SDK creates an envelope with
// every tab type, the signer fills them with the keyboard in Chromium (desktop and phone), the
// server judges the Finish again (a forged one is refused, nothing written), the values come
// back over the API, and pdftotext reads them in the sealed PDF.

const run = promisify(execFile);

type SdkEnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }>;
  getDocument(accountId: string, envelopeId: string, documentId: string, opts?: Record<string, string>): Promise<Buffer>;
  getFormData(accountId: string, envelopeId: string): Promise<{ recipientFormData?: { recipientId: string; formData?: { name: string; value: string }[] }[]; formData?: { name: string; value: string }[] }>;
  listRecipients(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<{ signers: { status: string; tabs?: Record<string, { tabLabel?: string; groupName?: string; value?: string; selected?: string }[]> }[] }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => SdkEnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingPageFixture();

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });

/** One tab of every type the service has, each on its own line of a blank page area. */
function everyTab() {
  return {
    signHereTabs: [at(72, 640)],
    initialHereTabs: [at(330, 640)],
    fullNameTabs: [{ ...at(72, 100), tabLabel: 'FullName' }],
    dateSignedTabs: [{ ...at(330, 100), tabLabel: 'Signed on' }],
    firstNameTabs: [{ ...at(72, 130), tabLabel: 'First' }],
    lastNameTabs: [{ ...at(330, 130), tabLabel: 'Last' }],
    emailAddressTabs: [{ ...at(72, 160), tabLabel: 'EmailAddress' }],
    companyTabs: [{ ...at(330, 160), tabLabel: 'Company', value: 'Acme Corp', locked: 'true' }],
    titleTabs: [{ ...at(72, 190), tabLabel: 'Title', tooltip: 'Job title', tabOrder: '1' }],
    textTabs: [
      { ...at(330, 190), tabLabel: 'Code', tooltip: 'Customer code', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$', validationMessage: 'Two letters, two digits', tabOrder: '2', font: 'CourierNew', fontSize: 'Size12', bold: 'true', fontColor: 'NavyBlue' },
      { ...at(330, 430), tabLabel: 'Reason', tooltip: 'Why you accept', conditionalParentLabel: 'Terms', conditionalParentValue: 'on', tabOrder: '13' },
    ],
    numberTabs: [{ ...at(72, 220), tabLabel: 'Qty', tooltip: 'Quantity', tabOrder: '3' }],
    numericalTabs: [{ ...at(330, 220), tabLabel: 'Price', tooltip: 'Unit price', minNumericalValue: '1', validationType: 'Currency', localePolicy: { cultureName: 'de-DE' }, tabOrder: '4' }],
    formulaTabs: [{ ...at(72, 250), tabLabel: 'Total', tooltip: 'Total', formula: '[Qty] * [Price]', roundDecimalPlaces: '2' }],
    dateTabs: [{ ...at(330, 250), tabLabel: 'Start', tooltip: 'Start date', tabOrder: '5' }],
    emailTabs: [{ ...at(72, 280), tabLabel: 'Contact', tooltip: 'Contact e-mail', tabOrder: '6' }],
    zipTabs: [{ ...at(330, 280), tabLabel: 'Zip', tooltip: 'ZIP code', useDash4: 'true', tabOrder: '7' }],
    ssnTabs: [{ ...at(72, 310), tabLabel: 'Ssn', tooltip: 'SSN', tabOrder: '8' }],
    radioGroupTabs: [{ groupName: 'Plan', tooltip: 'Plan', documentId: '1', radios: [{ pageNumber: '1', xPosition: '330', yPosition: '310', value: 'basic', tabOrder: '9' }, { pageNumber: '1', xPosition: '380', yPosition: '310', value: 'pro', tabOrder: '9' }] }],
    listTabs: [{ ...at(72, 340), tabLabel: 'Colour', tooltip: 'Colour', listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue', value: 'blue' }], tabOrder: '10' }],
    checkboxTabs: [{ ...at(72, 430), tabLabel: 'Terms', tooltip: 'I accept the terms', required: 'true', tabOrder: '12' }],
    noteTabs: [{ ...at(330, 340), tabLabel: 'Note', value: 'Read section 4' }],
    viewTabs: [{ ...at(72, 370), buttonText: 'Read terms', requiredRead: 'true', tabOrder: '11' }],
    approveTabs: [{ ...at(72, 700), buttonText: 'Approve' }],
    declineTabs: [{ ...at(330, 700), buttonText: 'Decline', declineReason: 'The price is wrong' }],
  };
}

async function createEnvelope(h: SigningHarness, sdk: SdkEnvelopesApi, email: string): Promise<string> {
  const { envelopeId } = await sdk.createEnvelope(h.accountId, { envelopeDefinition: {
    emailSubject: 'Order form',
    documents: [{ documentBase64: b64(await samplePdf(1, 'Order form')), documentId: '1', fileExtension: 'pdf', name: 'Order form' }],
    recipients: { signers: [{ email, name: 'Ada King Lovelace', recipientId: '1', routingOrder: '1', clientUserId: 'ada-1', tabs: everyTab() }] },
    status: 'sent',
  } }).catch((err: { response?: { data?: unknown } }) => {
    throw new Error(`createEnvelope refused: ${JSON.stringify(err.response?.data)}`);
  });
  return envelopeId;
}

async function openSigning(h: SigningHarness, sdk: SdkEnvelopesApi, envelopeId: string, email: string, viewport: { width: number; height: number }): Promise<Page> {
  const { url } = await sdk.createRecipientView(h.accountId, envelopeId, { recipientViewRequest: { returnUrl: fx.returnUrl, authenticationMethod: 'none', email, userName: 'Ada King Lovelace', clientUserId: 'ada-1' } });
  const context = await fx.browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: 'Finish' }).waitFor();
  return page;
}

async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-tabs-text-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    return (await run('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Keyboard only, in focus order (tabOrder), every field the signer fills; the signature last. */
async function fillEveryTab(page: Page): Promise<void> {
  const focused = () => page.evaluate<string | null>("document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent)");
  const typeNext = async (label: string, text: string) => {
    assert.equal(await focused(), label);
    await page.keyboard.press('Control+A');
    await page.keyboard.type(text);
    await page.keyboard.press('Tab');
  };
  await page.getByLabel('Job title').focus();
  await typeNext('Job title', 'Countess');
  await typeNext('Customer code', 'AB12');
  await typeNext('Quantity', '3');
  await typeNext('Unit price', '19,5');
  assert.equal(await page.getByLabel('Total').textContent(), '58.50', 'the formula follows live');
  assert.equal(await focused(), 'Start date');
  await page.keyboard.type('11212026');
  for (let i = 0; i < 4 && (await focused()) === 'Start date'; i++) await page.keyboard.press('Tab');
  await typeNext('Contact e-mail', 'ada@example.com');
  await typeNext('ZIP code', '12345-6789');
  await typeNext('SSN', '123-45-6789');
  assert.equal(await focused(), 'basic');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'Colour');
  await page.keyboard.press('b');
  await page.keyboard.press('Tab');
  assert.match(await focused() ?? '', /Read terms/);
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'I accept the terms');
  await page.keyboard.press('Space');
  await page.getByLabel('Why you accept').waitFor();
  await page.keyboard.press('Tab');
  await typeNext('Why you accept', 'Fair price');
  assert.equal(await page.locator('[aria-invalid=true]').count(), 0);
  await page.getByRole('button', { name: 'Sign here' }).press('Enter');
  await page.getByRole('button', { name: 'Adopt and sign' }).click();
  await page.getByRole('button', { name: 'Initial here' }).press('Enter');
  await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).waitFor();
}

/** The form data as the API gives it: getFormData's name → value for the signer. */
async function formData(sdk: SdkEnvelopesApi, h: SigningHarness, envelopeId: string): Promise<Record<string, string>> {
  const data = await sdk.getFormData(h.accountId, envelopeId);
  const entries = data.recipientFormData?.[0]?.formData ?? data.formData ?? [];
  return Object.fromEntries(entries.map((e) => [e.name, e.value]));
}

test('every tab type, end to end: SDK create → Chromium keyboard (desktop, phone) → Finish judged again → form data → sealed PDF text', async (t) => {
  const h = await startSigningEsign(t, { converter: fx.converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  const sdk = new docusign.EnvelopesApi(client);

  for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]] as const) {
    await t.test(name, async () => {
      const email = `ada-${name}@example.com`;
      const envelopeId = await createEnvelope(h, sdk, email);
      const page = await openSigning(h, sdk, envelopeId, email, viewport);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      // The locked prefilled value and the auto-filled preview are shown.
      assert.equal(await page.getByLabel('Company').inputValue(), 'Acme Corp');
      await page.getByRole('img', { name: 'Full name: Ada King Lovelace' }).waitFor();
      // Wrong values first: messages in the page, Finish disabled.
      await page.getByLabel('Customer code').fill('ab');
      await page.getByLabel('Customer code').press('Tab');
      await page.getByText('Two letters, two digits').waitFor();
      await page.getByLabel('ZIP code').fill('1234');
      await page.getByLabel('ZIP code').press('Tab');
      await page.getByText('Enter a ZIP code as 12345 or 12345-6789.').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Finish' }).isDisabled(), true);
      assert.equal(await page.getByRole('button', { name: 'Approve' }).isDisabled(), true);
      await fillEveryTab(page);
      if (name === 'phone') assert.ok((await page.evaluate<number>('document.documentElement.scrollWidth')) <= 360, 'no horizontal scroll');
      await page.getByRole('button', { name: 'Finish' }).click();
      await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
      assert.deepEqual(errors, []);
      await page.context().close();

      // The values the API gives back: the signer's, the service's, the formula's.
      const values = await formData(sdk, h, envelopeId);
      const signedOn = values['Signed on'] ?? '';
      assert.match(signedOn, /^\d{2}\/\d{2}\/\d{4}$/);
      for (const [label, value] of Object.entries({
        Title: 'Countess', Code: 'AB12', Company: 'Acme Corp', Qty: '3', Price: '19,5', Total: '58.50', Start: '2026-11-21',
        Contact: 'ada@example.com', Zip: '12345-6789', Ssn: '123-45-6789', Plan: 'pro', Colour: 'blue', Terms: 'true', Reason: 'Fair price',
        FullName: 'Ada King Lovelace', First: 'Ada King', Last: 'Lovelace', EmailAddress: email,
      })) assert.equal(values[label], value, label);

      // The sealed PDF shows them, dates in the account's format, the list's text; the certificate lists them.
      await pollUntil(async () => (await sdk.listRecipients(h.accountId, envelopeId)).signers[0]?.status === 'completed' && (await h.api('GET', `/envelopes/${envelopeId}`).then((r) => r.json()) as { status: string }).status === 'completed', { timeoutMs: 120_000, intervalMs: 100, what: 'completion' });
      const combined = await sdk.getDocument(h.accountId, envelopeId, 'combined', { certificate: 'true' });
      const text = (await pdfText(new Uint8Array(combined))).replace(/[ \t]+/g, ' ');
      for (const shown of ['Countess', 'AB12', 'Acme Corp', '19,5', '58.50', '11/21/2026', 'ada@example.com', '12345-6789', '123-45-6789', 'Blue', 'Fair price', 'Ada King Lovelace', 'Read section 4', signedOn]) {
        assert.ok(text.includes(shown), `the completed PDF shows ${shown}`);
      }
      for (const line of ['Code: AB12', 'Plan: pro', 'Colour: Blue', 'Terms: checked', 'Total: 58.50', 'Start: 11/21/2026']) assert.ok(text.includes(line), `the certificate lists ${line}`);
    });
  }

  await t.test('a forged Finish (a locked tab changed, a rule broken) is refused on the page and writes nothing; the honest one then passes', async () => {
    const email = 'ada-forged@example.com';
    const envelopeId = await createEnvelope(h, sdk, email);
    const page = await openSigning(h, sdk, envelopeId, email, { width: 1280, height: 900 });
    await fillEveryTab(page);
    const ids = await page.evaluate<Record<string, string>>("Object.fromEntries(JSON.parse(document.getElementById('tab-rules').textContent).map(function (d) { return [d.rule.label, d.id]; }))");
    const current = await page.evaluate<Record<string, string>>("(function () { var o = {}; JSON.parse(document.getElementById('tab-rules').textContent).forEach(function (d) { if (d.rule.takesValue) o[d.id] = d.value; }); return o; })()");
    // Submits the form as the page would, with tabValues of our own (form.submit() skips the page's handler).
    const forge = async (values: Record<string, string>) => {
      await page.evaluate(`(function () { var f = document.getElementById('finish-form'); f.elements.tabValues.value = ${JSON.stringify(JSON.stringify(values))}; HTMLFormElement.prototype.submit.call(f); })()`);
      await page.waitForLoadState('domcontentloaded');
    };
    const honest = { ...current, [ids.Title!]: 'Countess', [ids.Code!]: 'AB12', [ids.Qty!]: '3', [ids.Price!]: '19,5', [ids.Start!]: '2026-11-21', [ids.Contact!]: 'ada@example.com', [ids.Zip!]: '12345', [ids.Ssn!]: '123456789', [ids.Plan!]: 'pro', [ids.Colour!]: 'red', [ids.Terms!]: 'true', [ids.Reason!]: 'ok' };
    for (const [forged, refusal] of [
      [{ ...honest, [ids.Company!]: 'Evil Corp' }, /INVALID_TAB_OPERATION: .*The company tab "Company" is locked/],
      [{ ...honest, [ids.Code!]: 'abcd' }, /INVALID_TAB_VALUE: .*tab \d+ "Code": Two letters, two digits/],
      [{ ...honest, [ids.Price!]: '0,5' }, /INVALID_TAB_VALUE: .*tab \d+ "Price": Enter a number of at least 1/],
      [{ ...honest, [ids.Terms!]: 'false' }, /"Terms": Check this box to continue/],
      [{ ...honest, [ids.Total!]: '1000000' }, /INVALID_TAB_OPERATION: .*The formula tab "Total" takes no value/],
    ] as const) {
      await forge(forged);
      await page.getByRole('alert').filter({ hasText: refusal }).waitFor();
      const signer = (await sdk.listRecipients(h.accountId, envelopeId)).signers[0];
      assert.equal(signer?.status, 'delivered', 'nothing written');
      await page.getByLabel('Job title').focus();
      await fillEveryTab(page);
    }
    await forge(honest);
    await page.waitForURL((u) => u.toString().startsWith(fx.returnUrl));
    const values = await formData(sdk, h, envelopeId);
    assert.equal(values.Company, 'Acme Corp');
    assert.equal(values.Colour, 'red');
    assert.equal(values.Total, '58.50');
    await page.context().close();
  });
});
