import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, test } from 'node:test';
import type { ParsedMail } from 'mailparser';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { FormClient, hiddenField } from '../support/form-client.ts';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

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

let converter: Converter;
let smtp: SmtpListener;
let h: SigningHarness;
let pdf: string;
const cleanups: (() => unknown)[] = [];
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
  const ctx = { after: (fn: () => unknown) => void cleanups.push(fn) } as unknown as Parameters<typeof startSigningEsign>[0];
  smtp = await startSmtpListener(ctx);
  h = await startSigningEsign(ctx, { converter, smtpUrl: smtp.url });
  pdf = b64(await samplePdf(1));
});
after(async () => {
  for (const fn of cleanups.reverse()) await fn();
  await converter.close();
});

function apis() {
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return { accounts: new docusign.AccountsApi(client), envelopes: new docusign.EnvelopesApi(client) };
}

const at = (x: number, y: number) => ({ documentId: '1', pageNumber: '1', xPosition: String(x), yPosition: String(y) });

function definition(signers: Json[], extra: Json = {}): Json {
  return { emailSubject: 'Mietvertrag 7', documents: [{ documentId: '1', name: 'Lease.pdf', fileExtension: 'pdf', documentBase64: pdf }], recipients: { signers }, status: 'sent', ...extra };
}

async function mailsTo(email: string, count: number): Promise<ParsedMail[]> {
  const of = () => smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email);
  await pollUntil(() => of().length >= count, { timeoutMs: 20_000, what: `${count} mail(s) to ${email}` });
  return of();
}

/** Opens the signing link of the recipient's first mail and finishes with a typed signature. */
async function signFromMail(email: string): Promise<void> {
  const [request] = await mailsTo(email, 1);
  const link = new URL(request?.text?.split('\n').find((l) => l.startsWith(`${h.origin}/signing/`))?.trim() ?? assert.fail('a signing link')).pathname;
  const signer = new FormClient(h.origin);
  const page = await signer.get(link);
  assert.equal(page.status, 200, page.text);
  const finish = await signer.post(`${link}/finish`, { _csrf: hiddenField(page.text, '_csrf'), signatureKind: 'typed', signatureText: 'Greta', signedTabs: '' });
  assert.ok(finish.status < 400, finish.text);
}

async function pdfText(bytes: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'account-look-'));
  try {
    await writeFile(join(dir, 'c.pdf'), bytes);
    return (await promisify(execFile)('pdftotext', ['-layout', join(dir, 'c.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const pad = (n: number) => String(n).padStart(2, '0');

test('the account\'s date formats: dateSigned and date tabs in the sealed PDF, getFormData, and the certificate\'s times (pdftotext); the default stays MM/dd/yyyy', async () => {
  const { accounts, envelopes } = apis();
  const tabs = { dateSignedTabs: [{ ...at(72, 80), tabLabel: 'Signed on' }], dateTabs: [{ ...at(72, 140), tabLabel: 'Move in', value: '2026-03-07', locked: 'true' }] };
  // Before any setting: DocuSign's default, as before accounts had one.
  const plain = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: definition([{ email: 'date-default@example.com', name: 'Greta', recipientId: '1', routingOrder: '1', tabs }]) });
  await signFromMail('date-default@example.com');
  await mailsTo('date-default@example.com', 2);
  const today = h.clock.now();
  const us = `${pad(today.getUTCMonth() + 1)}/${pad(today.getUTCDate())}/${today.getUTCFullYear()}`;
  const plainText = await pdfText(new Uint8Array(await (await h.api('GET', `/envelopes/${plain.envelopeId}/documents/combined?certificate=true`)).arrayBuffer()));
  assert.ok(plainText.includes(us) && plainText.includes('03/07/2026'), plainText);
  assert.match(plainText, /Completed:\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC/, 'the certificate keeps its ISO times');

  await accounts.updateSettings(h.accountId, { accountSettingsInformation: { signDateFormat: 'd MMMM yyyy', signTimeFormat: 'h:mm tt' } });
  const { envelopeId } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: definition([{ email: 'date-long@example.com', name: 'Greta', recipientId: '1', routingOrder: '1', tabs }]) });
  await signFromMail('date-long@example.com');
  await mailsTo('date-long@example.com', 2);
  const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
  const long = `${today.getUTCDate()} ${MONTHS[today.getUTCMonth()]} ${today.getUTCFullYear()}`;
  // The wire carries the date signed as written; the date tab keeps the value the sender gave.
  const form = (await envelopes.getFormData(h.accountId, envelopeId)).recipientFormData?.[0]?.formData ?? [];
  assert.equal(form.find((f) => f.name === 'Signed on')?.value, long);
  const combined = await pdfText(new Uint8Array(await (await h.api('GET', `/envelopes/${envelopeId}/documents/combined?certificate=true`)).arrayBuffer()));
  assert.ok(combined.includes(long), `the date signed as ${long}:\n${combined}`);
  assert.ok(combined.includes('7 March 2026'), `the date tab as 7 March 2026:\n${combined}`);
  assert.doesNotMatch(combined, /03\/07\/2026/);
  // The certificate: its times and the signer's tab values in the account's formats.
  assert.match(combined, /Completed:\s+\d{1,2} [A-Z][a-z]+ \d{4} \d{1,2}:\d\d (AM|PM) UTC/);
  assert.match(combined, /Move in: 7 March 2026/);
  await accounts.updateSettings(h.accountId, { accountSettingsInformation: { signDateFormat: 'MM/dd/yyyy', signTimeFormat: 'HH:mm:ss' } });
});

test('the account\'s language is the last fallback: mails and the certificate in it; the recipient\'s own and the brand\'s still win', async () => {
  const { accounts, envelopes } = apis();
  await accounts.updateSettings(h.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'de', signDateFormat: 'dd.MM.yyyy', signTimeFormat: 'HH:mm' } });
  try {
    const brand = (await accounts.createBrand(h.accountId, { brand: { brandName: 'Maison', defaultBrandLanguage: 'fr' } })).brands[0] ?? assert.fail('a brand');
    await envelopes.createEnvelope(h.accountId, { envelopeDefinition: definition([{ email: 'acct-fr@example.com', name: 'Fleur', recipientId: '1', routingOrder: '1' }], { brandId: brand.brandId }) });
    await envelopes.createEnvelope(h.accountId, { envelopeDefinition: definition([{ email: 'acct-es@example.com', name: 'Sol', recipientId: '1', routingOrder: '1', emailNotification: { supportedLanguage: 'es' } }]) });
    const { envelopeId } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: definition([{ email: 'acct-de@example.com', name: 'Greta', recipientId: '1', routingOrder: '1' }]) });
    const [de] = await mailsTo('acct-de@example.com', 1);
    assert.match(de?.text ?? '', /Greta, bitte unterschreiben Sie/);
    assert.match(String(de?.html), /<html lang="de">/);
    assert.match((await mailsTo('acct-fr@example.com', 1))[0]?.text ?? '', /Fleur, veuillez signer/);
    assert.match(String((await mailsTo('acct-es@example.com', 1))[0]?.html), /Revisar y firmar/);
    await signFromMail('acct-de@example.com');
    const [, completed] = await mailsTo('acct-de@example.com', 2);
    assert.equal(completed?.subject, 'Abgeschlossen: Mietvertrag 7');
    const certificate = await pdfText(new Uint8Array(await (await h.api('GET', `/envelopes/${envelopeId}/documents/certificate`)).arrayBuffer()));
    assert.ok(certificate.includes('Abschlusszertifikat'), certificate);
    // Its times in the account's formats (dd.MM.yyyy HH:mm), not the locale's.
    assert.match(certificate, /Abgeschlossen:\s+\d\d\.\d\d\.\d{4} \d\d:\d\d UTC/);
  } finally {
    await accounts.updateSettings(h.accountId, { accountSettingsInformation: { accountDefaultLanguage: 'en' } });
  }
});
