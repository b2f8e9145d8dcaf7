import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { pdfText } from '../support/pdf-text.ts';
import { signingMailFixture } from '../support/signing-mail-fixture.ts';

// The official SDK, unmodified (CommonJS, no typings): only what these tests call is typed.
type Json = Record<string, unknown>;
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (client: unknown) => {
    updateSettings(accountId: string, opts: { accountSettingsInformation: unknown }): Promise<unknown>;
    createBrand(accountId: string, opts: { brand: unknown }): Promise<{ brands: { brandId: string }[] }>;
  };
  EnvelopesApi: new (client: unknown) => {
    createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
    getFormData(accountId: string, envelopeId: string): Promise<{ recipientFormData?: { formData?: { name: string; value: string }[] }[] }>;
  };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

const fx = signingMailFixture();

function apis() {
  const client = new docusign.ApiClient();
  client.setBasePath(`${fx.h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${fx.h.token}`);
  return { accounts: new docusign.AccountsApi(client), envelopes: new docusign.EnvelopesApi(client) };
}

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });

function definition(signers: Json[], extra: Json = {}): Json {
  return { emailSubject: 'Mietvertrag 7', documents: [{ documentId: '1', name: 'Lease.pdf', fileExtension: 'pdf', documentBase64: fx.pdf }], recipients: { signers }, status: 'sent', ...extra };
}

/** Opens the signing link of the recipient's first mail and finishes with a typed signature. */
async function signFromMail(email: string): Promise<void> {
  const [request] = await fx.mailsTo(email, 1);
  const link = new URL(request?.text?.split('\n').find((l) => l.startsWith(`${fx.h.origin}/signing/`))?.trim() ?? assert.fail('a signing link')).pathname;
  const signer = new FormClient(fx.h.origin);
  const page = await signer.get(link);
  assert.equal(page.status, 200, page.text);
  const finish = await signer.post(`${link}/finish`, { _csrf: hiddenField(page.text, '_csrf'), signatureKind: 'typed', signatureText: 'Greta', signedTabs: '' });
  assert.ok(finish.status < 400, finish.text);
}


const pad = (n: number) => String(n).padStart(2, '0');

test('the account\'s date formats: dateSigned and date tabs in the sealed PDF, getFormData, and the certificate\'s times (pdftotext); the default stays MM/dd/yyyy', async () => {
  const { accounts, envelopes } = apis();
  const tabs = { dateSignedTabs: [{ ...at(72, 80), tabLabel: 'Signed on' }], dateTabs: [{ ...at(72, 140), tabLabel: 'Move in', value: '2026-03-07', locked: 'true' }] };
  // Before any setting: DocuSign's default, as before accounts had one.
  const plain = await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([{ email: 'date-default@example.com', name: 'Greta', recipientId: '1', routingOrder: '1', tabs }]) });
  await signFromMail('date-default@example.com');
  await fx.mailsTo('date-default@example.com', 2);
  const today = fx.h.clock.now();
  const us = `${pad(today.getUTCMonth() + 1)}/${pad(today.getUTCDate())}/${today.getUTCFullYear()}`;
  const plainText = await pdfText(new Uint8Array(await (await fx.h.api('GET', `/envelopes/${plain.envelopeId}/documents/combined?certificate=true`)).arrayBuffer()));
  assert.ok(plainText.includes(us) && plainText.includes('03/07/2026'), plainText);
  assert.match(plainText, /Completed:\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, 'the certificate keeps its ISO times');

  await accounts.updateSettings(fx.h.accountId, { accountSettingsInformation: { signDateFormat: 'd MMMM yyyy', signTimeFormat: 'h:mm tt' } });
  const { envelopeId } = await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([{ email: 'date-long@example.com', name: 'Greta', recipientId: '1', routingOrder: '1', tabs }]) });
  await signFromMail('date-long@example.com');
  await fx.mailsTo('date-long@example.com', 2);
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const long = `${today.getUTCDate()} ${MONTHS[today.getUTCMonth()]} ${today.getUTCFullYear()}`;
  // The wire carries the date signed as written; the date tab keeps the value the sender gave.
  const form = (await envelopes.getFormData(fx.h.accountId, envelopeId)).recipientFormData?.[0]?.formData ?? [];
  assert.equal(form.find((f) => f.name === 'Signed on')?.value, long);
  const combined = await pdfText(new Uint8Array(await (await fx.h.api('GET', `/envelopes/${envelopeId}/documents/combined?certificate=true`)).arrayBuffer()));
  assert.ok(combined.includes(long), `the date signed as ${long}:\n${combined}`);
  assert.ok(combined.includes('7 March 2026'), `the date tab as 7 March 2026:\n${combined}`);
  assert.doesNotMatch(combined, /03\/07\/2026/);
  // The certificate: its times and the signer's tab values in the account's formats.
  assert.match(combined, /Completed:\s+\d{1,2} [A-Z][a-z]+ \d{4} \d{1,2}:\d\d (AM|PM) UTC/);
  assert.match(combined, /Move in: 7 March 2026/);
  await accounts.updateSettings(fx.h.accountId, { accountSettingsInformation: { signDateFormat: 'MM/dd/yyyy', signTimeFormat: 'HH:mm:ss' } });
});

test('the account\'s language is the last fallback: mails and the certificate in it; the recipient\'s own and the brand\'s still win', async () => {
  const { accounts, envelopes } = apis();
  await accounts.updateSettings(fx.h.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'de', signDateFormat: 'dd.MM.yyyy', signTimeFormat: 'HH:mm' } });
  try {
    const brand = (await accounts.createBrand(fx.h.accountId, { brand: { brandName: 'Maison', defaultBrandLanguage: 'fr' } })).brands[0] ?? assert.fail('a brand');
    await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([{ email: 'acct-fr@example.com', name: 'Fleur', recipientId: '1', routingOrder: '1' }], { brandId: brand.brandId }) });
    await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([{ email: 'acct-es@example.com', name: 'Sol', recipientId: '1', routingOrder: '1', emailNotification: { supportedLanguage: 'es' } }]) });
    const { envelopeId } = await envelopes.createEnvelope(fx.h.accountId, { envelopeDefinition: definition([{ email: 'acct-de@example.com', name: 'Greta', recipientId: '1', routingOrder: '1' }]) });
    const [de] = await fx.mailsTo('acct-de@example.com', 1);
    assert.match(de?.text ?? '', /Greta, bitte unterschreiben Sie/);
    assert.match(String(de?.html), /<html lang="de">/);
    assert.match((await fx.mailsTo('acct-fr@example.com', 1))[0]?.text ?? '', /Fleur, veuillez signer/);
    assert.match(String((await fx.mailsTo('acct-es@example.com', 1))[0]?.html), /Revisar y firmar/);
    await signFromMail('acct-de@example.com');
    const [, completed] = await fx.mailsTo('acct-de@example.com', 2);
    assert.equal(completed?.subject, 'Abgeschlossen: Mietvertrag 7');
    const certificate = await pdfText(new Uint8Array(await (await fx.h.api('GET', `/envelopes/${envelopeId}/documents/certificate`)).arrayBuffer()));
    assert.ok(certificate.includes('Abschlusszertifikat'), certificate);
    // Its times in the account's formats (dd.MM.yyyy HH:mm), not the locale's.
    assert.match(certificate, /Abgeschlossen:\s+\d\d\.\d\d\.\d{4} \d\d:\d\d UTC/);
  } finally {
    await accounts.updateSettings(fx.h.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'en' } });
  }
});
