import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import type { Browser } from 'playwright-core';
import { launchChromium, pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { secondAccount } from '../support/second-account.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { gif, jpeg, png } from '../support/images.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
type Json = Record<string, unknown>;
type WireBrand = { brandId: string; brandName: string; brandCompany?: string; defaultBrandLanguage?: string; colors: { name: string; value: string }[]; isSigningDefault: boolean; isSendingDefault: boolean; logos?: { primary?: string; secondary?: string; email?: string } };
type BrandsResponse = { brands: WireBrand[]; recipientBrandIdDefault?: string; senderBrandIdDefault?: string };
type AccountsApi = {
  createBrand(accountId: string, opts: { brand: unknown }): Promise<BrandsResponse>;
  listBrands(accountId: string, opts?: Json): Promise<BrandsResponse>;
  getBrand(accountId: string, brandId: string, opts?: Json): Promise<WireBrand>;
  updateBrand(accountId: string, brandId: string, opts: { brand: unknown }): Promise<WireBrand>;
  deleteBrand(accountId: string, brandId: string): Promise<unknown>;
  deleteBrands(accountId: string, opts: { brandsRequest: unknown }): Promise<BrandsResponse>;
  // The SDK's order: the bytes first (AccountsApi.js updateBrandLogoByType).
  updateBrandLogoByType(bytes: Buffer, accountId: string, brandId: string, logoType: string): Promise<unknown>;
  deleteBrandLogoByType(accountId: string, brandId: string, logoType: string): Promise<unknown>;
  getBrandResourcesByContentType(accountId: string, brandId: string, type: string, opts?: Json): Promise<unknown>;
};
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (client: unknown) => AccountsApi;
  EnvelopesApi: new (client: unknown) => { createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>; getEnvelope(accountId: string, envelopeId: string): Promise<{ brandId?: string }> };
  TemplatesApi: new (client: unknown) => { createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }>; get(accountId: string, templateId: string): Promise<{ brandId?: string }> };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
/** The SDK answers its model classes; compared as the JSON they came from. */
const plain = <T>(x: T): T => JSON.parse(JSON.stringify(x)) as T;

let browser: Browser;
let converter: Converter;
let smtp: SmtpListener;
let h: SigningHarness;
let other: { accountId: string; token: string };
// One server for the file; what the harness would stop after a test it stops after the file.
const cleanups: (() => unknown)[] = [];
before(async () => {
  [browser, converter] = await Promise.all([launchChromium(), buildConverter({ officeWorkers: 1, htmlPages: 1 })]);
  const ctx = { after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as Parameters<typeof startSigningEsign>[0];
  smtp = await startSmtpListener(ctx);
  h = await startSigningEsign(ctx, { converter, smtpUrl: smtp.url });
  other = await secondAccount(h);
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
  await browser.close();
  await converter.close();
});

function apis(token = h.token) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return { accounts: new docusign.AccountsApi(client), envelopes: new docusign.EnvelopesApi(client), templates: new docusign.TemplatesApi(client) };
}

async function envelopeWith(extra: Json, signer: { email: string; name: string }) {
  return {
    emailSubject: 'Please sign the branded agreement',
    documents: [{ documentId: '1', name: 'Agreement.pdf', fileExtension: 'pdf', documentBase64: b64(await samplePdf(1)) }],
    recipients: { signers: [{ ...signer, recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '150', yPosition: '500' }] } }] },
    status: 'sent',
    ...extra,
  };
}

function mailTo(email: string): ParsedMail | undefined {
  return smtp.received.find((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email);
}

async function logoBytes(path: string): Promise<{ status: number; type: string | null; bytes: Buffer }> {
  const res = await fetch(`${h.origin}${path}`, { headers: { authorization: `Bearer ${h.token}` } });
  return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
}

test('AccountsApi brands with the SDK: create, list, get, update, logos, delete', async () => {
  const { accounts } = apis();
  const created = await accounts.createBrand(h.accountId, { brand: { brandName: 'Acme', brandCompany: 'Acme Corp', defaultBrandLanguage: 'de', colors: [{ name: 'headerBackground', value: '#1E4B8F' }, { name: 'buttonPrimaryBackground', value: '#c60' }] } });
  const acme = created.brands[0];
  assert.ok(acme);
  assert.deepEqual({ ...plain(acme), brandId: 'x' }, { brandId: 'x', brandName: 'Acme', brandCompany: 'Acme Corp', defaultBrandLanguage: 'de', brandLanguages: ['de'], colors: [{ name: 'buttonPrimaryBackground', value: '#cc6600' }, { name: 'headerBackground', value: '#1e4b8f' }], isSendingDefault: false, isSigningDefault: false, isOverridingCompanyName: true, isOrganizationBrand: 'false', emailContent: [], landingPages: [], links: [] });

  // Logos: the SDK sends the bytes (Content-Type image/png); what is stored is what comes back.
  const primary = png(40, 20, [20, 90, 200]);
  await accounts.updateBrandLogoByType(primary, h.accountId, acme.brandId, 'primary');
  await accounts.updateBrandLogoByType(jpeg(), h.accountId, acme.brandId, 'email');
  const got = await accounts.getBrand(h.accountId, acme.brandId, { includeLogos: 'true' });
  assert.deepEqual(plain(got.logos), { primary: `/restapi/v2.1/accounts/${h.accountId}/brands/${acme.brandId}/logos/primary`, email: `/restapi/v2.1/accounts/${h.accountId}/brands/${acme.brandId}/logos/email` });
  assert.deepEqual(await logoBytes(got.logos?.primary ?? ''), { status: 200, type: 'image/png', bytes: primary });
  assert.deepEqual(await logoBytes(got.logos?.email ?? ''), { status: 200, type: 'image/jpeg', bytes: jpeg() });
  await accounts.deleteBrandLogoByType(h.accountId, acme.brandId, 'email');
  assert.deepEqual(Object.keys((await accounts.getBrand(h.accountId, acme.brandId, { includeLogos: 'true' })).logos ?? {}), ['primary']);
  assert.deepEqual(await sdkFailure(accounts.deleteBrandLogoByType(h.accountId, acme.brandId, 'email')), [400, 'BRAND_LOGO_INVALID']);

  // Update: the fields given; the signing default is one per account.
  const updated = await accounts.updateBrand(h.accountId, acme.brandId, { brand: { brandCompany: 'Acme Europe', isSigningDefault: true, colors: [{ name: 'headerText', value: '#ffffff' }] } });
  assert.deepEqual(plain([updated.brandName, updated.brandCompany, updated.isSigningDefault, updated.colors]), ['Acme', 'Acme Europe', true, [{ name: 'headerText', value: '#ffffff' }]]);
  const beta = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Beta', isSigningDefault: 'true', isSendingDefault: true } })).brands[0];
  assert.ok(beta);
  const listed = await accounts.listBrands(h.accountId);
  assert.deepEqual(plain(listed.brands.map((b) => [b.brandName, b.isSigningDefault, b.logos ?? null])), [['Acme', false, null], ['Beta', true, null]]);
  assert.deepEqual([listed.recipientBrandIdDefault, listed.senderBrandIdDefault], [beta.brandId, beta.brandId]);
  assert.ok((await accounts.listBrands(h.accountId, { includeLogos: 'true' })).brands[0]?.logos?.primary);

  // deleteBrand and deleteBrands (every id checked before any is deleted).
  const gamma = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Gamma' } })).brands[0];
  assert.ok(gamma);
  assert.deepEqual(await sdkFailure(accounts.deleteBrands(h.accountId, { brandsRequest: { brands: [{ brandId: gamma.brandId }, { brandId: 'no-such-brand' }] } })), [400, 'BRAND_ID_INVALID']);
  assert.equal((await accounts.listBrands(h.accountId)).brands.length, 3);
  const left = await accounts.deleteBrands(h.accountId, { brandsRequest: { brands: [{ brandId: gamma.brandId }] } });
  assert.deepEqual(left.brands.map((b) => b.brandName), ['Acme', 'Beta']);
  await accounts.deleteBrand(h.accountId, beta.brandId);
  assert.deepEqual((await accounts.listBrands(h.accountId)).brands.map((b) => b.brandName), ['Acme']);
  assert.deepEqual(await sdkFailure(accounts.getBrand(h.accountId, beta.brandId)), [400, 'BRAND_ID_INVALID']);
});

test('bad brand input gets a DocuSign error naming it, and nothing is written', async () => {
  const { accounts } = apis();
  const before = (await accounts.listBrands(h.accountId)).brands.length;
  const failure = async (brand: Json) => sdkFailure(accounts.createBrand(h.accountId, { brand }));
  assert.deepEqual(await failure({ brandCompany: 'No name' }), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await failure({ brandName: 'x', colors: [{ name: 'headerBackground', value: 'red;background:url(https://evil.example/x)' }] }), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await failure({ brandName: 'x', colors: [{ name: 'pageBackground', value: '#ffffff' }] }), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await failure({ brandName: 'x', defaultBrandLanguage: 'en"><script>' }), [400, 'INVALID_REQUEST_BODY']);
  const refused = await h.api('POST', '/brands', { brandName: 'x', emailContent: [{ emailContentType: 'envelopeActivation', content: 'Hi' }], links: [{ linkType: 'about', urlOrMailTo: 'https://x.example' }] });
  const body = (await refused.json()) as { errorCode: string; message: string };
  assert.deepEqual([refused.status, body.errorCode], [400, 'INVALID_REQUEST_BODY']);
  assert.match(body.message, /emailContent \(custom e-mail texts.*links \(custom links/);
  assert.equal((await accounts.listBrands(h.accountId)).brands.length, before);

  const brand = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Logos' } })).brands[0];
  assert.ok(brand);
  const put = (type: string, bytes: Buffer) => sdkFailure(accounts.updateBrandLogoByType(bytes, h.accountId, brand.brandId, type));
  assert.deepEqual(await put('primary', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')), [400, 'BRAND_LOGO_INVALID']);
  assert.deepEqual(await put('primary', png(2, 2, [0, 0, 0], { after: Buffer.from('<html><script>alert(1)</script>') })), [400, 'BRAND_LOGO_INVALID']);
  assert.deepEqual(await put('primary', png(1, 1, [0, 0, 0], { declared: { width: 60_000, height: 60_000 } })), [400, 'BRAND_LOGO_INVALID']);
  assert.deepEqual(await put('primary', png(1, 1, [0, 0, 0], { raw: Buffer.alloc(16 * 1024 * 1024) })), [400, 'BRAND_LOGO_INVALID']);
  assert.deepEqual(await put('banner', gif()), [400, 'INVALID_REQUEST_PARAMETER']);
  const huge = await fetch(`${h.origin}/restapi/v2.1/accounts/${h.accountId}/brands/${brand.brandId}/logos/primary`, { method: 'PUT', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'image/png' }, body: Buffer.alloc(2 * 1024 * 1024) });
  // Past the bound the body is never read whole: the framework's 413, in DocuSign's shape.
  assert.deepEqual([huge.status, ((await huge.json()) as { errorCode: string }).errorCode], [400, 'INVALID_REQUEST_BODY']);
  assert.equal((await accounts.getBrand(h.accountId, brand.brandId, { includeLogos: 'true' })).logos, undefined, 'no logo was stored');
  // Brand resource files are refused by name, not answered with nothing.
  assert.deepEqual(await sdkFailure(accounts.getBrandResourcesByContentType(h.accountId, brand.brandId, 'email')), [400, 'INVALID_REQUEST_PARAMETER']);
  await accounts.deleteBrand(h.accountId, brand.brandId);
});

test('another account never sees, changes or uses a brand', async () => {
  const mine = apis();
  const theirs = apis(other.token);
  const brand = (await mine.accounts.createBrand(h.accountId, { brand: { brandName: 'Private', brandCompany: 'Private Co' } })).brands[0];
  assert.ok(brand);
  await mine.accounts.updateBrandLogoByType(png(4, 4), h.accountId, brand.brandId, 'primary');
  assert.deepEqual(plain((await theirs.accounts.listBrands(other.accountId)).brands), []);
  for (const call of [
    theirs.accounts.getBrand(other.accountId, brand.brandId),
    theirs.accounts.updateBrand(other.accountId, brand.brandId, { brand: { brandName: 'Taken' } }),
    theirs.accounts.updateBrandLogoByType(gif(), other.accountId, brand.brandId, 'primary'),
    theirs.accounts.deleteBrand(other.accountId, brand.brandId),
  ]) assert.deepEqual(await sdkFailure(call), [400, 'BRAND_ID_INVALID']);
  // Nor through the first account's URL with their own token (the API guard checks membership).
  assert.equal((await sdkFailure(theirs.accounts.getBrand(h.accountId, brand.brandId)))[0], 400);

  // Their envelope or template naming this brand is DocuSign's error, and nothing is created.
  const envelope = await envelopeWith({ brandId: brand.brandId }, { email: 'victim@example.com', name: 'Vic' });
  assert.deepEqual(await sdkFailure(theirs.envelopes.createEnvelope(other.accountId, { envelopeDefinition: envelope })), [400, 'BRAND_ID_INVALID']);
  const template = { name: 'T', documents: envelope.documents, recipients: { signers: [{ roleName: 'signer', recipientId: '1' }] }, brandId: brand.brandId };
  assert.deepEqual(await sdkFailure(theirs.templates.createTemplate(other.accountId, { envelopeTemplate: template })), [400, 'BRAND_ID_INVALID']);
  const listed = await fetch(`${h.origin}/restapi/v2.1/accounts/${other.accountId}/envelopes?from_date=2000-01-01`, { headers: { authorization: `Bearer ${other.token}` } });
  assert.equal(((await listed.json()) as { envelopes?: unknown[] }).envelopes?.length ?? 0, 0);
  assert.equal(mailTo('victim@example.com'), undefined);
  const mine2 = (await mine.accounts.getBrand(h.accountId, brand.brandId));
  assert.equal(mine2.brandName, 'Private');
  await mine.accounts.deleteBrand(h.accountId, brand.brandId);
});

test('a branded envelope: the signing page in Chromium and the mail over SMTP show the logo, colours and company, its text escaped', async () => {
  const { accounts, envelopes } = apis();
  const company = '<img src=x onerror=alert(1)>Acme & "Sons"</p><script>alert(2)</script>';
  const brand = (await accounts.createBrand(h.accountId, { brand: { brandName: '<b>Acme</b>', brandCompany: company, colors: [{ name: 'headerBackground', value: '#1e4b8f' }, { name: 'headerText', value: '#ffeeaa' }, { name: 'buttonPrimaryBackground', value: '#cc6600' }, { name: 'buttonPrimaryText', value: '#000000' }] } })).brands[0];
  assert.ok(brand);
  const logo = png(40, 20, [20, 90, 200]);
  await accounts.updateBrandLogoByType(logo, h.accountId, brand.brandId, 'primary');
  const email = 'branded@example.com';
  const { envelopeId } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: await envelopeWith({ brandId: brand.brandId }, { email, name: 'Bree Branded' }) });
  assert.equal((await envelopes.getEnvelope(h.accountId, envelopeId)).brandId, brand.brandId);

  // The mail: the company escaped, the logo by an absolute URL that serves the image, the brand's colours.
  const mail = await pollUntil(() => mailTo(email), { timeoutMs: 15_000, intervalMs: 25, what: 'the branded mail' });
  const mailHtml = String(mail.html);
  assert.ok(mailHtml.includes('&lt;img src=x onerror=alert(1)&gt;Acme &amp; &quot;Sons&quot;&lt;/p&gt;&lt;script&gt;alert(2)&lt;/script&gt;'), mailHtml);
  assert.ok(!mailHtml.includes('<img src=x') && !mailHtml.includes('<script>'), 'no markup of the brand reaches the mail');
  const logoUrl = /<img src="([^"]+)"/.exec(mailHtml)?.[1] ?? '';
  assert.match(logoUrl, new RegExp(`^${h.origin}/signing/assets/logos/[0-9a-f]{64}$`));
  const served = await fetch(logoUrl);
  assert.deepEqual([served.status, served.headers.get('content-type'), served.headers.get('x-content-type-options'), Buffer.from(await served.arrayBuffer()).equals(logo)], [200, 'image/png', 'nosniff', true]);
  assert.match(mailHtml, /background:#1e4b8f/);
  assert.match(mailHtml, /background:#cc6600;color:#000000/);
  assert.ok((mail.text ?? '').startsWith(`${company.replace(/[\r\n]+/g, ' ')}\n`), mail.text);

  // The signing page, in Chromium: logo loaded, company as text, the brand's colours, no script of the brand ran.
  const link = /^(https?:\/\/\S+\/signing\/\S+)$/m.exec(mail.text ?? '')?.[1];
  assert.ok(link);
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    await page.goto(link);
    await page.getByRole('button', { name: 'Finish' }).waitFor();
    assert.equal(await page.locator('.brand-company').textContent(), company);
    const img = page.locator('.brand-mark img');
    await pollUntil(async () => ((await page.evaluate<number>("(function () { var i = document.querySelector('.brand-mark img'); return i.complete ? i.naturalWidth : 0; })()")) === 40 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: 'the logo loaded' });
    assert.equal(await img.getAttribute('alt'), company);
    const style = await page.evaluate<Record<string, string>>("(function () { var b = getComputedStyle(document.querySelector('.bar')), f = getComputedStyle(document.getElementById('finish')); return { barBg: b.backgroundColor, barText: b.color, finishBg: f.backgroundColor, finishText: f.color }; })()");
    assert.deepEqual(style, { barBg: 'rgb(30, 75, 143)', barText: 'rgb(255, 238, 170)', finishBg: 'rgb(204, 102, 0)', finishText: 'rgb(0, 0, 0)' });
    // The brand's markup became text: its mark holds only the logo and the company's span.
    assert.deepEqual(await page.evaluate<string[]>("Array.prototype.map.call(document.querySelectorAll('.brand-mark *'), function (e) { return e.tagName; })"), ['IMG', 'SPAN']);
    assert.equal(await page.locator('img[src="x"]').count(), 0);
    assert.deepEqual(dialogs, []);
  } finally {
    await context.close();
  }
  // The stylesheet path carries only colours: anything else is not found.
  assert.equal((await fetch(`${h.origin}/signing/assets/brand/red;x.-.-.-.css`)).status, 404);
  assert.equal((await fetch(`${h.origin}/signing/assets/logos/${'0'.repeat(64)}`)).status, 404);
});

test('a branded signing page in two languages, in Chromium: the brand\'s default language for a signer without one, German for a signer who asked for it; the same logo, colours and company on both', async () => {
  const { accounts, envelopes } = apis();
  const company = 'Société <Générale> & Cie';
  const brand = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Bilingual', brandCompany: company, defaultBrandLanguage: 'fr', colors: [{ name: 'headerBackground', value: '#0b6e4f' }, { name: 'headerText', value: '#fafafa' }] } })).brands[0];
  assert.ok(brand);
  assert.equal(brand.defaultBrandLanguage, 'fr');
  await accounts.updateBrandLogoByType(png(30, 12, [200, 40, 40]), h.accountId, brand.brandId, 'primary');
  const sign = { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '150', yPosition: '500' }] };
  await envelopes.createEnvelope(h.accountId, { envelopeDefinition: {
    emailSubject: 'Contrat bilingue', brandId: brand.brandId, status: 'sent',
    documents: [{ documentId: '1', name: 'Contrat.pdf', fileExtension: 'pdf', documentBase64: b64(await samplePdf(1)) }],
    recipients: { signers: [
      { email: 'francine@example.com', name: 'Francine', recipientId: '1', routingOrder: '1', tabs: sign },
      { email: 'dieter@example.com', name: 'Dieter', recipientId: '2', routingOrder: '1', emailNotification: { supportedLanguage: 'de' }, tabs: sign },
    ] },
  } });
  // Each page's words written out here rather than read from the catalogs.
  for (const [email, lang, finish, decline] of [['francine@example.com', 'fr', 'Terminer', 'Refuser'], ['dieter@example.com', 'de', 'Fertigstellen', 'Ablehnen']] as const) {
    const mail = await pollUntil(() => mailTo(email), { timeoutMs: 15_000, intervalMs: 25, what: `the mail to ${email}` });
    const link = /^(https?:\/\/\S+\/signing\/\S+)$/m.exec(mail.text ?? '')?.[1];
    assert.ok(link, mail.text);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(link);
      await page.getByRole('button', { name: finish, exact: true }).waitFor();
      await page.getByRole('button', { name: decline, exact: true }).waitFor();
      assert.equal(await page.locator('html').getAttribute('lang'), lang);
      assert.equal(await page.getByRole('button', { name: 'Finish', exact: true }).count(), 0, `${lang}: no English Finish`);
      assert.equal(await page.locator('.brand-company').textContent(), company);
      await pollUntil(async () => ((await page.evaluate<number>("(function () { var i = document.querySelector('.brand-mark img'); return i && i.complete ? i.naturalWidth : 0; })()")) === 30 ? true : undefined), { timeoutMs: 10_000, intervalMs: 50, what: `the logo on the ${lang} page` });
      const bar = await page.evaluate<Record<string, string>>("(function () { var b = getComputedStyle(document.querySelector('.bar')); return { bg: b.backgroundColor, fg: b.color }; })()");
      assert.deepEqual(bar, { bg: 'rgb(11, 110, 79)', fg: 'rgb(250, 250, 250)' }, lang);
    } finally {
      await context.close();
    }
  }
});

test('the account’s signing default brands an envelope that names none; a template’s brand brands its envelopes', async () => {
  const { accounts, envelopes, templates } = apis();
  const fallback = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Default', brandCompany: 'Default Co', isSigningDefault: true } })).brands[0];
  const templated = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Template brand', brandCompany: 'Template Co' } })).brands[0];
  const named = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Named', brandCompany: 'Named Co' } })).brands[0];
  assert.ok(fallback && templated && named);
  const plainEnvelope = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: await envelopeWith({}, { email: 'default@example.com', name: 'Dee' }) });
  assert.equal((await envelopes.getEnvelope(h.accountId, plainEnvelope.envelopeId)).brandId, fallback.brandId);
  const mail = await pollUntil(() => mailTo('default@example.com'), { timeoutMs: 15_000, intervalMs: 25, what: 'the default-branded mail' });
  assert.match(String(mail.html), /Default Co/);

  const definition = await envelopeWith({}, { email: 'x@example.com', name: 'X' });
  const { templateId } = await templates.createTemplate(h.accountId, { envelopeTemplate: { name: 'Branded template', documents: definition.documents, recipients: { signers: [{ roleName: 'signer', recipientId: '1', tabs: definition.recipients.signers[0]?.tabs }] }, brandId: templated.brandId } });
  assert.equal((await templates.get(h.accountId, templateId)).brandId, templated.brandId);
  const fromTemplate = async (extra: Json) => (await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { templateId, templateRoles: [{ roleName: 'signer', name: 'Tess', email: 'tess@example.com' }], status: 'sent', ...extra } })).envelopeId;
  assert.equal((await envelopes.getEnvelope(h.accountId, await fromTemplate({}))).brandId, templated.brandId);
  assert.equal((await envelopes.getEnvelope(h.accountId, await fromTemplate({ brandId: named.brandId }))).brandId, named.brandId);
  // An envelope keeps the look it was sent with; a template whose brand is gone falls back to the default.
  const sent = await fromTemplate({});
  await accounts.deleteBrand(h.accountId, templated.brandId);
  assert.equal((await envelopes.getEnvelope(h.accountId, sent)).brandId, templated.brandId);
  assert.equal((await envelopes.getEnvelope(h.accountId, await fromTemplate({}))).brandId, fallback.brandId);
  // An envelope's brand is not changed by Envelopes::update: refused by name.
  const update = await h.api('PUT', `/envelopes/${sent}`, { brandId: named.brandId });
  assert.deepEqual([update.status, ((await update.json()) as { errorCode: string }).errorCode], [400, 'INVALID_REQUEST_BODY']);
  await accounts.deleteBrands(h.accountId, { brandsRequest: { brands: [{ brandId: fallback.brandId }, { brandId: named.brandId }] } });
});
