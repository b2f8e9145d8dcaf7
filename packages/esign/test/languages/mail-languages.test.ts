import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { pdfText } from '../support/pdf-text.ts';
import { signingMailFixture } from '../support/signing-mail-fixture.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
type Json = Record<string, unknown>;
type WireSigner = { recipientId: string; emailNotification?: { supportedLanguage?: string } };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (client: unknown) => { createBrand(accountId: string, opts: { brand: unknown }): Promise<{ brands: { brandId: string }[] }> };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
    update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<unknown>;
    listRecipients(accountId: string, envelopeId: string): Promise<{ signers: WireSigner[] }>;
  };
  TemplatesApi: new (client: unknown) => { createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }> };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingMailFixture();

function apis() {
  const client = new docusign.ApiClient();
  client.setBasePath(`${fx.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${fx.h.token}`);
  return { accounts: new docusign.AccountsApi(client), envelopes: new docusign.EnvelopesApi(client), templates: new docusign.TemplatesApi(client) };
}

function signer(recipientId: string, email: string, name: string, extra: Json = {}): Json {
  return { email, name, recipientId, routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '150', yPosition: '500' }] }, ...extra };
}

function definition(signers: Json[], extra: Json = {}): Json {
  return { emailSubject: 'Lease 12', documents: [{ documentId: '1', name: 'Lease.pdf', fileExtension: 'pdf', documentBase64: fx.pdf }], recipients: { signers }, status: 'sent', ...extra };
}

// What each language's mails must say, written out here rather than read from the catalogs.
const EXPECTED = [
  { language: 'en', lang: 'en', button: 'Review and sign', voided: 'Voided: Lease 12' },
  { language: 'de', lang: 'de', button: 'Prüfen und unterschreiben', voided: 'Storniert: Lease 12' },
  { language: 'fr', lang: 'fr', button: 'Vérifier et signer', voided: 'Annulé : Lease 12' },
  { language: 'es', lang: 'es', button: 'Revisar y firmar', voided: 'Anulado: Lease 12' },
  { language: 'pt_BR', lang: 'pt-BR', button: 'Revisar e assinar', voided: 'Anulado: Lease 12' },
  { language: 'it', lang: 'it', button: 'Rivedi e firma', voided: 'Annullata: Lease 12' },
  { language: 'nl', lang: 'nl', button: 'Bekijken en ondertekenen', voided: 'Ingetrokken: Lease 12' },
  { language: 'ja', lang: 'ja', button: '確認して署名', voided: '無効: Lease 12' },
] as const;

test('each language: the signing request and the void notice come through SMTP in the recipient\'s language', async () => {
  const { envelopes } = apis();
  const sent = await Promise.all(EXPECTED.map(async ({ language }) => {
    const email = `signer-${language.toLowerCase()}@example.com`;
    const { envelopeId } = await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([signer('1', email, 'Sam', { emailNotification: { supportedLanguage: language } })]) });
    return { envelopeId, email };
  }));
  for (const [i, { language, lang, button }] of EXPECTED.entries()) {
    const [request] = await fx.mailsTo(sent[i]?.email ?? '', 1);
    assert.equal(request?.subject, 'Lease 12', 'the sender\'s own subject');
    assert.ok(request?.text?.includes(button) || String(request?.html).includes(button), `${language}: ${button}`);
    assert.match(String(request?.html), new RegExp(`<html lang="${lang}">`));
  }
  // The wire carries the language back (RecipientEmailNotification).
  const recipients = await envelopes.listRecipients(fx.h.accountId, sent[1]?.envelopeId ?? '');
  assert.equal(recipients.signers[0]?.emailNotification?.supportedLanguage, 'de');
  for (const { envelopeId } of sent) await envelopes.update(fx.h.accountId, envelopeId, { envelope: { status: 'voided', voidedReason: 'Wrong unit' } });
  for (const [i, { language, voided }] of EXPECTED.entries()) {
    const mails = await fx.mailsTo(sent[i]?.email ?? '', 2);
    assert.equal(mails[1]?.subject, voided, language);
  }
  const [, deVoid] = await fx.mailsTo(sent[1]?.email ?? '', 2);
  assert.match(deVoid?.text ?? '', /„Lease 12“ wurde vom Absender storniert\.[\s\S]*Grund: Wrong unit/);
  const [, jaVoid] = await fx.mailsTo(sent[7]?.email ?? '', 2);
  assert.match(jaVoid?.text ?? '', /「Lease 12」は送信者によって無効にされました。[\s\S]*理由: Wrong unit/);
});

test('without a language of their own, a recipient reads the brand\'s default language; their own wins over it', async () => {
  const { accounts, envelopes } = apis();
  const brand = (await accounts.createBrand(fx.h.accountId, { brand: { brandName: 'Muster', brandCompany: 'Muster GmbH', defaultBrandLanguage: 'de' } })).brands[0];
  assert.ok(brand);
  await envelopes.createEnvelope(fx.h.accountId, {
    envelopeDefinition: definition([signer('1', 'brand-de@example.com', 'Dora'), signer('2', 'brand-ja@example.com', 'Jun', { emailNotification: { supportedLanguage: 'ja' } })], { brandId: brand.brandId }),
  });
  const [de] = await fx.mailsTo('brand-de@example.com', 1);
  assert.match(de?.text ?? '', /^Muster GmbH\n\nDora, bitte unterschreiben Sie\n/);
  assert.match(String(de?.html), /<html lang="de">[\s\S]*Leiten Sie diese E-Mail nicht weiter/);
  const [ja] = await fx.mailsTo('brand-ja@example.com', 1);
  assert.match(ja?.text ?? '', /Jun 様、署名をお願いします/);
  // Without brand or language: the account's, which is English here (no account-level setting).
  await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([signer('1', 'plain@example.com', 'Pat')]) });
  const [plain] = await fx.mailsTo('plain@example.com', 1);
  assert.match(plain?.text ?? '', /Pat, please sign/);
});

test('an unknown language code is a 400 naming it, for a recipient and for a brand; nothing is created', async () => {
  const { accounts, envelopes, templates } = apis();
  const before = fx.smtp.received.length;
  const count = async () => ((await (await fx.h.api('GET', '/envelopes?from_date=2000-01-01')).json()) as { resultSetSize?: string }).resultSetSize;
  const created = await count();
  for (const code of ['zh_CN', 'xx', 'EN']) {
    const res = await fx.h.api('POST', '/envelopes', definition([signer('1', 'unknown-lang@example.com', 'Una', { emailNotification: { supportedLanguage: code } })]));
    const body = (await res.json()) as { errorCode: string; message: string };
    assert.deepEqual([res.status, body.errorCode], [400, 'INVALID_REQUEST_BODY'], code);
    assert.ok(body.message.includes(`"${code}" is not a supported language`), body.message);
  }
  assert.deepEqual(await sdkFailure(envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([signer('1', 'u@example.com', 'U', { emailNotification: { supportedLanguage: 'tlh' } })]) })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(accounts.createBrand(fx.h.accountId, { brand: { brandName: 'Klingon', defaultBrandLanguage: 'zh_CN' } })), [400, 'INVALID_REQUEST_BODY']);
  // A subject or message of the recipient's own is refused by name, never dropped.
  const own = await fx.h.api('POST', '/envelopes', definition([signer('1', 'u@example.com', 'U', { emailNotification: { supportedLanguage: 'de', emailSubject: 'Nur für dich' } })]));
  assert.equal(own.status, 400);
  assert.match(((await own.json()) as { message: string }).message, /emailSubject \(a per-recipient e-mail subject is not supported yet/);
  // Templates keep no recipient language yet: refused there too.
  assert.deepEqual(await sdkFailure(templates.createTemplate(fx.h.accountId, { envelopeTemplate: { name: 'T', emailSubject: 'T', documents: [{ documentId: '1', name: 'T.pdf', documentBase64: fx.pdf }], recipients: { signers: [{ roleName: 'Signer', recipientId: '1', emailNotification: { supportedLanguage: 'de' } }] } } })), [400, 'INVALID_REQUEST_BODY']);
  assert.equal(await count(), created);
  assert.equal(fx.smtp.received.length, before);
});

test('attack: a name in a translated message stays text in the HTML part, in every language', async () => {
  const { envelopes } = apis();
  const evil = '<img src=x onerror=alert(1)>Eve';
  await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([signer('1', 'evil-ja@example.com', evil, { emailNotification: { supportedLanguage: 'ja' } })]) });
  const [mail] = await fx.mailsTo('evil-ja@example.com', 1);
  const html = String(mail?.html);
  assert.ok(!html.includes('<img src=x'), 'no markup from the name');
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;Eve 様、署名をお願いします'), html);
});

test('a German envelope completes in German: the completed mail, and the certificate\'s labels and dates (pdftotext)', async () => {
  const { envelopes } = apis();
  const { envelopeId } = await envelopes.createEnvelope(fx.h.accountId, {
    envelopeDefinition: { ...definition([{ email: 'cert-de@example.com', name: 'Greta', recipientId: '1', routingOrder: '1', emailNotification: { supportedLanguage: 'de' } }]), emailSubject: 'Mietvertrag' },
  });
  const [request] = await fx.mailsTo('cert-de@example.com', 1);
  const link = new URL(request?.text?.split('\n').find((l) => l.startsWith(`${fx.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link')).pathname;
  const signer = new FormClient(fx.h.origin);
  const page = await signer.get(link);
  assert.equal(page.status, 200, page.text);
  const finish = await signer.post(`${link}/finish`, { _csrf: hiddenField(page.text, '_csrf'), signatureKind: 'typed', signatureText: 'Greta', signedTabs: '' });
  assert.ok(finish.status < 400, finish.text);
  const [, completed] = await fx.mailsTo('cert-de@example.com', 2);
  assert.equal(completed?.subject, 'Abgeschlossen: Mietvertrag');
  assert.match(completed?.text ?? '', /„Mietvertrag“ ist von allen unterschrieben\./);
  const res = await fx.h.api('GET', `/envelopes/${envelopeId}/documents/certificate`);
  assert.equal(res.status, 200);
  const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
  for (const label of ['Abschlusszertifikat', 'Umschlag-ID:', 'Betreff:', 'Gesendet:', 'Abgeschlossen:', 'Unterzeichner', 'Unterschrieben:', 'Dokumente', 'Ereignisse']) assert.ok(text.includes(label), `${label} in\n${text}`);
  assert.doesNotMatch(text, /Certificate of Completion|Envelope Id:/);
  assert.match(text, /Abgeschlossen:\s+\d\d\.\d\d\.\d{4}, \d\d:\d\d:\d\d UTC/);
  assert.match(text, /Lease\.pdf \(1 Seite\)/);
});

test('a Japanese envelope\'s certificate is in Japanese, in the embedded font (pdftotext reads it back)', async () => {
  const { envelopes } = apis();
  const { envelopeId } = await envelopes.createEnvelope(fx.h.accountId, {
    envelopeDefinition: { ...definition([{ email: 'cert-ja@example.com', name: '山田 太郎', recipientId: '1', routingOrder: '1', emailNotification: { supportedLanguage: 'ja' } }]), emailSubject: '賃貸契約' },
  });
  const [request] = await fx.mailsTo('cert-ja@example.com', 1);
  const link = new URL(request?.text?.split('\n').find((l) => l.startsWith(`${fx.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link')).pathname;
  const signer = new FormClient(fx.h.origin);
  const page = await signer.get(link);
  assert.equal(page.status, 200, page.text);
  const finish = await signer.post(`${link}/finish`, { _csrf: hiddenField(page.text, '_csrf'), signatureKind: 'typed', signatureText: '山田 太郎', signedTabs: '' });
  assert.ok(finish.status < 400, finish.text);
  await fx.mailsTo('cert-ja@example.com', 2);
  const res = await fx.h.api('GET', `/envelopes/${envelopeId}/documents/certificate`);
  assert.equal(res.status, 200);
  const text = await pdfText(new Uint8Array(await res.arrayBuffer()));
  for (const s of ['完了証明書', '件名:', '賃貸契約', '山田 太郎', 'cert-ja@example.com']) assert.ok(text.includes(s), `${s} in\n${text}`);
  assert.doesNotMatch(text, /Certificate of Completion|\?\?/);
});

