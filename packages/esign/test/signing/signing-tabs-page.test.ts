import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import type { Envelope, Recipient } from '../../src/domain/envelope/envelope.ts';
import { parseTabs } from '../../src/domain/tabs/parse-tabs.ts';
import type { TabOnPage } from '../../src/domain/tabs/tab-on-page.ts';
import { initialTabValue } from '../../src/domain/tabs/values/initial-tab-value.ts';
import { SIGNING_CSP, SIGNING_JS } from '../../src/signing/install-signing.ts';
import { PageRenderer } from '../../src/signing/page-renderer.ts';
import { ceremonyPage } from '../../src/signing/signing-pages.ts';
import { translator } from '../../src/i18n/translator.ts';
import { SIGNING_STYLESHEET } from '../../src/signing/signing-stylesheet.ts';
import { WireReader } from '../../src/wire/wire-reader.ts';
import { samplePdf } from '../support/sample-pdf.ts';

// The signing page's tab controls on their own: the page as ceremonyPage renders it, with the
// real script, stylesheet and CSP, in Chromium. (The whole ceremony, server Finish included,
// is signing-tabs.test.ts.)

const at = (x: number, y: number, page = 1) => ({ documentId: '1', pageNumber: String(page), xPosition: String(x), yPosition: String(y) });
const TABS = parseTabs(new WireReader('tabs', {
  textTabs: [
    { ...at(72, 100), tabLabel: 'Code', tooltip: 'Customer code', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$', validationMessage: 'Two letters, two digits', tabOrder: '1' },
    { ...at(300, 100), tabLabel: 'Why', tooltip: 'Why you agree', conditionalParentLabel: 'Terms', conditionalParentValue: 'on', tabOrder: '12' },
  ],
  companyTabs: [{ ...at(72, 130), tabLabel: 'Company', value: 'Acme', locked: 'true', tabOrder: '2' }],
  numberTabs: [{ ...at(72, 160), tabLabel: 'Qty', tooltip: 'Quantity', tabOrder: '3' }],
  numericalTabs: [{ ...at(200, 160), tabLabel: 'Price', tooltip: 'Unit price', minNumericalValue: '1', validationType: 'Currency', localePolicy: { cultureName: 'de-DE' }, tabOrder: '4' }],
  formulaTabs: [{ ...at(330, 160), tabLabel: 'Total', tooltip: 'Total', formula: '[Qty] * [Price]', roundDecimalPlaces: '2' }],
  dateTabs: [{ ...at(72, 190), tabLabel: 'Start', tooltip: 'Start date', tabOrder: '5' }],
  emailTabs: [{ ...at(72, 220), tabLabel: 'Mail', tooltip: 'Contact e-mail', tabOrder: '6' }],
  zipTabs: [{ ...at(72, 250), tabLabel: 'Zip', tooltip: 'ZIP code', tabOrder: '7' }],
  ssnTabs: [{ ...at(200, 250), tabLabel: 'Ssn', tooltip: 'SSN', tabOrder: '8' }],
  checkboxTabs: [{ ...at(72, 290), tabLabel: 'Terms', tooltip: 'I accept the terms', required: 'true', tabOrder: '11' }],
  radioGroupTabs: [{ groupName: 'Plan', tooltip: 'Plan', documentId: '1', radios: [{ pageNumber: '1', xPosition: '72', yPosition: '330', value: 'basic', tabOrder: '9' }, { pageNumber: '1', xPosition: '120', yPosition: '330', value: 'pro', tabOrder: '9' }] }],
  listTabs: [{ ...at(72, 370), tabLabel: 'Colour', tooltip: 'Colour', listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue', value: 'blue' }], tabOrder: '10' }],
  noteTabs: [{ ...at(72, 410), value: 'Read section 4' }],
  fullNameTabs: [at(72, 440)],
  dateSignedTabs: [at(300, 440)],
  signHereTabs: [at(72, 600)],
}), { recipientId: '1' });

const tabsOnPage: TabOnPage[] = TABS.map((tab, i) => ({
  tabId: `t${i + 1}`,
  tab,
  places: tab.type === 'radioGroup'
    ? tab.radios.map((r) => ({ documentId: '1', pageNumber: r.place.kind === 'absolute' ? r.place.pageNumber : 1, xPosition: r.place.kind === 'absolute' ? r.place.xPosition : 0, yPosition: r.place.kind === 'absolute' ? r.place.yPosition : 0 }))
    : [{ documentId: '1', pageNumber: tab.place.kind === 'absolute' ? tab.place.pageNumber : 1, xPosition: tab.place.kind === 'absolute' ? tab.place.xPosition : 0, yPosition: tab.place.kind === 'absolute' ? tab.place.yPosition : 0 }],
  value: initialTabValue(tab),
}));
const idOf = (label: string) => tabsOnPage.find((t) => (t.tab.type === 'radioGroup' ? t.tab.groupName : t.tab.tabLabel) === label)!.tabId;

// A Currency tab with money, as setTabValues asks for it (its salary prefilled), and one written in parentheses.
const MONEY_TABS: TabOnPage[] = parseTabs(new WireReader('tabs', {
  numericalTabs: [
    { ...at(72, 100), tabLabel: 'Salary', tooltip: 'Yearly salary', numericalValue: '123000', validationType: 'Currency', tabOrder: '1', localePolicy: { cultureName: 'en-US', currencyCode: 'usd', currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', useLongCurrencyFormat: 'true' } },
    { ...at(300, 100), tabLabel: 'Adjustment', tooltip: 'Adjustment', validationType: 'Currency', tabOrder: '2', localePolicy: { cultureName: 'de-DE', currencyCode: 'eur', currencyPositiveFormat: '1_period_234_period_567_comma_89_csym', currencyNegativeFormat: 'opar_1_period_234_period_567_comma_89_csym_cpar' } },
  ],
  formulaTabs: [{ ...at(72, 140), tabLabel: 'Total', tooltip: 'Total', formula: '[Salary] + [Adjustment]', roundDecimalPlaces: '2' }],
  signHereTabs: [at(72, 600)],
}), { recipientId: '1' }).map((tab, i) => ({
  tabId: `m${i + 1}`, tab, value: initialTabValue(tab),
  places: [{ documentId: '1', pageNumber: 1, xPosition: tab.type !== 'radioGroup' && tab.place.kind === 'absolute' ? tab.place.xPosition : 0, yPosition: tab.type !== 'radioGroup' && tab.place.kind === 'absolute' ? tab.place.yPosition : 0 }],
}));

let browser: Browser;
let origin = '';
const posts: URLSearchParams[] = [];
const renderer = new PageRenderer();
const server = createServer((req: IncomingMessage, res) => {
  const send = (type: string, body: string | Buffer, status = 200) => res.writeHead(status, { 'content-type': type, 'content-security-policy': SIGNING_CSP }).end(body);
  void (async () => {
    if (req.url === '/signing/assets/signing.js') return send('text/javascript', SIGNING_JS);
    if (req.url === '/signing/assets/signing.css') return send('text/css', SIGNING_STYLESHEET);
    if (req.url?.startsWith('/s/documents/1/pages/')) return send('image/jpeg', await renderer.jpeg('doc', 1, () => samplePdf(1)));
    if (req.url === '/s/finish' && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      posts.push(new URLSearchParams(body));
      return send('text/html', '<!doctype html><title>done</title><h1>Posted</h1>');
    }
    const envelope = { emailSubject: 'Order form' } as Envelope;
    const recipient = { name: 'Ada King Lovelace', email: 'ada@example.com' } as Recipient;
    return send('text/html', ceremonyPage(translator('en'), { base: '/s', csrf: 'token', envelope, recipient, tabs: req.url === '/money' ? MONEY_TABS : tabsOnPage, documents: [{ documentId: '1', name: 'Order', sizes: [{ width: 612, height: 792 }] }], now: new Date('2026-11-21T10:00:00Z') }));
  })().catch((err: unknown) => send('text/plain', String(err), 500));
});

before(async () => {
  browser = await launchChromium();
  origin = `http://127.0.0.1:${await listenOnLoopback(server)}`;
});
after(async () => {
  await browser.close();
  await new Promise((resolve) => server.close(resolve));
});

async function openPage(viewport: { width: number; height: number }, path = '/s'): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${origin}${path}`);
  return { page, errors };
}

for (const [name, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 360, height: 740 }]] as const) {
  test(`every tab type is a labelled control; wrong values show messages and keep Finish disabled; the keyboard fills them all (${name})`, async () => {
    const { page, errors } = await openPage(viewport);
    const finish = page.getByRole('button', { name: 'Finish' });
    // Prefilled, locked and auto-filled values are shown; the conditional tab waits for its parent.
    assert.equal(await page.getByLabel('Company').inputValue(), 'Acme');
    assert.equal(await page.getByLabel('Company').getAttribute('readonly'), '');
    await page.getByRole('img', { name: 'Full name: Ada King Lovelace' }).waitFor();
    await page.getByRole('img', { name: 'Date signed: 11/21/2026' }).waitFor();
    await page.getByRole('note', { name: 'Note' }).getByText('Read section 4').waitFor();
    assert.equal(await page.getByLabel('Why you agree').count(), 1);
    assert.equal(await page.getByLabel('Why you agree').isVisible(), false);

    // Wrong values first: each message appears once the field is left, tied to it for screen readers.
    const code = page.getByLabel('Customer code');
    await code.focus();
    await page.keyboard.type('ab1');
    await page.keyboard.press('Tab');
    assert.equal(await code.getAttribute('aria-invalid'), 'true');
    const describedBy = await code.getAttribute('aria-describedby');
    assert.equal(await page.locator(`#${describedBy}`).textContent(), 'Two letters, two digits');
    await page.getByLabel('Unit price').fill('1,005');
    await page.getByLabel('Unit price').press('Tab');
    await page.getByText('Enter an amount with at most two decimals.').waitFor();
    await page.getByLabel('Contact e-mail').fill('ada@');
    await page.getByLabel('Contact e-mail').press('Tab');
    await page.getByText('Enter an e-mail address such as name@example.com.').waitFor();
    await page.getByLabel('ZIP code').fill('123');
    await page.getByLabel('ZIP code').press('Tab');
    await page.getByText('Enter a ZIP code as 12345 or 123456789.').waitFor();
    assert.equal(await finish.isDisabled(), true);
    assert.match(await page.locator('#progress').textContent() ?? '', /fields? to complete or correct/);

    // Now right, by keyboard only, in focus order (tabOrder): Code, Company (locked), Qty, Price,
    // Start, Mail, Zip, Ssn, Plan, Colour, Terms, then Why once Terms shows it.
    // Page expressions are strings: this package's TypeScript has no DOM types.
    const focused = () => page.evaluate<string | null>("document.activeElement && (document.activeElement.getAttribute('aria-label') || document.activeElement.tagName)");
    const typeNext = async (label: string, text: string) => {
      assert.equal(await focused(), label);
      await page.keyboard.press('Control+A');
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
    };
    await code.focus();
    await typeNext('Customer code', 'AB12');
    assert.equal(await focused(), 'Company');
    await page.keyboard.press('Tab');
    await typeNext('Quantity', '3');
    await typeNext('Unit price', '19,5');
    // The formula follows live: 3 × 19,5 (de-DE) = 58.50.
    assert.equal(await page.getByLabel('Total').textContent(), '58.50');
    assert.equal(await focused(), 'Start date');
    await page.keyboard.type('11212026'); // month, day, year: the date field moves on by itself
    assert.equal(await page.getByLabel('Start date').inputValue(), '2026-11-21');
    // Chromium's date field keeps Tab within its own parts (and its calendar button) before leaving it.
    for (let i = 0; i < 4 && (await focused()) === 'Start date'; i++) await page.keyboard.press('Tab');
    await typeNext('Contact e-mail', 'ada@example.com');
    await typeNext('ZIP code', '12345');
    await typeNext('SSN', '123-45-6789');
    assert.equal(await focused(), 'basic');
    await page.keyboard.press('ArrowRight'); // the arrow selects the next radio: pro
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Colour');
    await page.keyboard.press('b'); // the list, by type-ahead: Blue
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'I accept the terms');
    await page.keyboard.press('Space'); // Terms checked: "Why" appears
    await page.getByLabel('Why you agree').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(await focused(), 'Why you agree');
    await page.keyboard.type('Good terms');
    await page.keyboard.press('Tab');
    assert.equal(await page.locator('[aria-invalid=true]').count(), 0, 'no field is marked invalid');
    // Fields are done; the signature is what is left.
    assert.equal(await finish.isDisabled(), true);
    assert.match(await page.locator('#progress').textContent() ?? '', /1 of 1 signature left/);
    await page.getByRole('button', { name: /Sign here/ }).press('Enter');
    await page.getByRole('button', { name: 'Adopt and sign' }).click();
    await pollFinishEnabled(page);
    if (name === 'phone') {
      // Phone size: the page fits the screen and the controls stay at least 24 px tall.
      const width = await page.evaluate<number>('document.documentElement.scrollWidth');
      assert.ok(width <= 360, `no horizontal scroll (${width})`);
      const box = await page.getByLabel('Customer code').boundingBox();
      assert.ok(box && box.height >= 24, `a tappable field (${box?.height})`);
    }
    await finish.click();
    await page.getByRole('heading', { name: 'Posted' }).waitFor();
    const form = posts.at(-1)!;
    const values = JSON.parse(form.get('tabValues') ?? '{}') as Record<string, string>;
    assert.deepEqual(
      { code: values[idOf('Code')], company: values[idOf('Company')], qty: values[idOf('Qty')], price: values[idOf('Price')], start: values[idOf('Start')], mail: values[idOf('Mail')], zip: values[idOf('Zip')], ssn: values[idOf('Ssn')], plan: values[idOf('Plan')], colour: values[idOf('Colour')], terms: values[idOf('Terms')], why: values[idOf('Why')] },
      { code: 'AB12', company: 'Acme', qty: '3', price: '19,5', start: '2026-11-21', mail: 'ada@example.com', zip: '12345', ssn: '123-45-6789', plan: 'pro', colour: 'blue', terms: 'true', why: 'Good terms' },
    );
    assert.equal(values[idOf('Total')], undefined, 'a formula is not posted: the server computes it');
    assert.equal(form.get('signatureKind'), 'typed');
    assert.deepEqual(errors, [], 'no script or CSP error');
    await page.context().close();
  });
}

async function pollFinishEnabled(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Finish' }).and(page.locator(':enabled')).waitFor();
}

test('a Currency tab with money shows its amount formatted, writes what the signer types the same way, and judges the amount', async () => {
  const { page, errors } = await openPage({ width: 1280, height: 900 }, '/money');
  const salary = page.getByLabel('Yearly salary');
  const adjustment = page.getByLabel('Adjustment');
  // The prefill (numericalValue 123000) as the sender's format writes it.
  assert.equal(await salary.inputValue(), '$123,000.00 USD');
  // Typed plainly, or half-formatted, it is written out once the field is left.
  await salary.fill('-2500.5');
  await salary.press('Tab');
  assert.equal(await salary.inputValue(), '-$2,500.50 USD');
  await salary.fill('$ 98765.4');
  await salary.press('Tab');
  assert.equal(await salary.inputValue(), '$98,765.40 USD');
  // Wrong amounts stay as typed, with the rule's message: too many decimals, another currency, no number.
  await adjustment.fill('1.234,567');
  await adjustment.press('Tab');
  await page.getByText('Enter an amount with at most two decimals.').waitFor();
  assert.equal(await adjustment.inputValue(), '1.234,567');
  await adjustment.fill('$5');
  await adjustment.press('Tab');
  await page.getByText('Enter a number, such as 1.234,50€.').waitFor();
  assert.equal(await adjustment.getAttribute('aria-invalid'), 'true');
  // A negative amount in parentheses; the formula reads both amounts.
  await adjustment.fill('-1234,5');
  await adjustment.press('Tab');
  assert.equal(await adjustment.inputValue(), '(1.234,50€)');
  assert.equal(await adjustment.getAttribute('aria-invalid'), null);
  assert.equal(await page.getByLabel('Total').textContent(), '97530.90');
  await page.getByRole('button', { name: /Sign here/ }).press('Enter');
  await page.getByRole('button', { name: 'Adopt and sign' }).click();
  await pollFinishEnabled(page);
  await page.getByRole('button', { name: 'Finish' }).click();
  await page.getByRole('heading', { name: 'Posted' }).waitFor();
  const values = JSON.parse(posts.at(-1)!.get('tabValues') ?? '{}') as Record<string, string>;
  assert.deepEqual([values.m1, values.m2], ['$98,765.40 USD', '(1.234,50€)']);
  assert.deepEqual(errors, [], 'no script or CSP error');
  await page.context().close();
});
