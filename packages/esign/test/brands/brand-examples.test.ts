import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { Document as DocxDocument, Packer, Paragraph, TextRun } from 'docx';
import type { ParsedMail } from 'mailparser';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { pollUntil } from '@signet/kit';
import { buildConverter, type Converter } from '@signet/pdf';
import { startSmtpListener, type SmtpListener } from '../support/smtp-listener.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';

// DocuSign's public examples createBrand, applyBrandToEnvelope and applyBrandToTemplate
// (github docusign/code-examples-node, lib/eSignature/examples) await the SDK's promise (no
// callback) and read the model it resolves to: createBrand's BrandsResponse, listBrands', and
// createEnvelope's `envelopeId`. These tests make the same calls with the same arguments, from
// the examples' documented inputs; nothing of the examples is copied.
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> } & (new () => Record<string, unknown>);
type BrandsResponse = { brands: { brandId: string; brandName: string; defaultBrandLanguage?: string }[] };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  AccountsApi: new (c: unknown) => {
    createBrand(accountId: string, opts: unknown): Promise<BrandsResponse>;
    listBrands(accountId: string): Promise<BrandsResponse>;
  };
  EnvelopesApi: new (c: unknown) => {
    createEnvelope(accountId: string, opts: unknown): Promise<{ envelopeId: string; status: string }>;
    getEnvelope(accountId: string, envelopeId: string): Promise<{ brandId?: string; status: string }>;
    listRecipients(accountId: string, envelopeId: string, opts: Record<string, string>): Promise<{ signers: { tabs?: { signHereTabs: { documentId: string }[] } }[] }>;
  };
  TemplatesApi: new (c: unknown) => { createTemplate(accountId: string, opts: unknown): Promise<{ templateId: string }> };
} & Record<'EnvelopeDefinition' | 'Document' | 'Signer' | 'SignHere' | 'Tabs' | 'Recipients', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

/** The examples' documented inputs (their launcher's form), with our addresses. */
const ARGS = { brandName: 'World Wide Corp brand', defaultBrandLanguage: 'en', signerEmail: 'signer@example.com', signerName: 'Sam Signer', ccEmail: 'cc@example.com', ccName: 'Carl Copy' };

function client(h: SigningHarness) {
  const api = new docusign.ApiClient();
  api.setBasePath(`${h.origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return api;
}

function mailTo(smtp: SmtpListener, email: string): ParsedMail[] {
  return smtp.received.filter((m) => m.to && !Array.isArray(m.to) && m.to.value[0]?.address === email);
}

/** The example's doc2 (docx) and doc3 (pdf) files: each carries /sn1/ in white. */
async function demoDocuments(): Promise<[Buffer, Buffer]> {
  const docx = await Packer.toBuffer(new DocxDocument({ sections: [{ children: [new Paragraph({ children: [new TextRun('Battle plan.')] }), new Paragraph({ children: [new TextRun('Signed: '), new TextRun({ text: '/sn1/', color: 'FFFFFF' })] })] }] }));
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Lorem ipsum dolor sit amet.', { x: 72, y: 700, size: 14, font });
  page.drawText('/sn1/', { x: 300, y: 200, size: 10, font, color: rgb(1, 1, 1) });
  return [Buffer.from(docx), Buffer.from(await pdf.save())];
}

/** applyBrandToEnvelope's makeEnvelope: an html document it writes, the docx and the pdf, a signer with two anchors, the brand. */
function makeEnvelope(args: { signerEmail: string; signerName: string; brandId: string; status: string }, doc2: Buffer, doc3: Buffer) {
  const env = new docusign.EnvelopeDefinition();
  env.emailSubject = 'Please sign this document set';
  const doc1 = new docusign.Document();
  doc1.documentBase64 = Buffer.from(`<!DOCTYPE html><html><head><meta charset="UTF-8"></head><body style="font-family:sans-serif;margin-left:2em;"><h1>World Wide Corp</h1><h4>Ordered by ${args.signerName}</h4><p>Email: ${args.signerEmail}</p><h3 style="margin-top:3em;">Agreed: <span style="color:white;">**signature_1**/</span></h3></body></html>`).toString('base64');
  doc1.name = 'Order acknowledgement';
  doc1.fileExtension = 'html';
  doc1.documentId = '1';
  const doc2Model = docusign.Document.constructFromObject({ documentBase64: doc2.toString('base64'), name: 'Battle Plan', fileExtension: 'docx', documentId: '2' });
  const doc3Model = docusign.Document.constructFromObject({ documentBase64: doc3.toString('base64'), name: 'Lorem Ipsum', fileExtension: 'pdf', documentId: '3' });
  env.documents = [doc1, doc2Model, doc3Model];
  const signer1 = docusign.Signer.constructFromObject({ email: args.signerEmail, name: args.signerName, recipientId: '1', routingOrder: '1' });
  const signHere1 = docusign.SignHere.constructFromObject({ anchorString: '**signature_1**', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' });
  const signHere2 = docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' });
  signer1.tabs = docusign.Tabs.constructFromObject({ signHereTabs: [signHere1, signHere2] });
  env.recipients = docusign.Recipients.constructFromObject({ signers: [signer1] });
  env.status = args.status;
  env.brandId = args.brandId;
  return env;
}

test('createBrand, applyBrandToEnvelope and applyBrandToTemplate driven as DocuSign’s examples drive the SDK', async (t: TestContext) => {
  const smtp = await startSmtpListener(t);
  const h = await startSigningEsign(t, { converter, smtpUrl: smtp.url });
  const accountsApi = new docusign.AccountsApi(client(h));
  const envelopesApi = new docusign.EnvelopesApi(client(h));

  // createBrand: a name and a default language; the results are the BrandsResponse.
  const created = await accountsApi.createBrand(h.accountId, { brand: { brandName: ARGS.brandName, defaultBrandLanguage: ARGS.defaultBrandLanguage } });
  const brand = created.brands[0];
  assert.ok(brand);
  assert.deepEqual([brand.brandName, brand.defaultBrandLanguage], [ARGS.brandName, 'en']);

  // applyBrandToEnvelope: the form lists the brands (getBrands), the envelope names the one chosen.
  const brands = await accountsApi.listBrands(h.accountId);
  assert.deepEqual(brands.brands.map((b) => b.brandId), [brand.brandId]);
  const [doc2, doc3] = await demoDocuments();
  const results = await envelopesApi.createEnvelope(h.accountId, { envelopeDefinition: makeEnvelope({ signerEmail: ARGS.signerEmail, signerName: ARGS.signerName, brandId: brand.brandId, status: 'sent' }, doc2, doc3) });
  const envelopeId = results.envelopeId;
  const branded = await envelopesApi.getEnvelope(h.accountId, envelopeId);
  assert.deepEqual([branded.status, branded.brandId], ['sent', brand.brandId]);
  const signer = (await envelopesApi.listRecipients(h.accountId, envelopeId, { includeTabs: 'true' })).signers[0];
  assert.deepEqual(signer?.tabs?.signHereTabs.map((x) => x.documentId), ['1', '2', '3']);
  const mail = await pollUntil(() => mailTo(smtp, ARGS.signerEmail)[0], { timeoutMs: 30_000, intervalMs: 25, what: 'the signer’s mail' });
  // A brand with neither company nor logo keeps the service's look in the mail.
  assert.match(mail.subject ?? '', /Please sign this document set/);

  // applyBrandToTemplate: an envelope of a template, naming the brand, with the template's roles filled.
  const templatesApi = new docusign.TemplatesApi(client(h));
  const { templateId } = await templatesApi.createTemplate(h.accountId, { envelopeTemplate: {
    name: 'Example Signer and CC template', emailSubject: 'Please sign this document',
    documents: [{ documentId: '1', name: 'Lorem Ipsum', fileExtension: 'pdf', documentBase64: b64(await samplePdf(1, 'World Wide Corp')) }],
    recipients: { signers: [{ roleName: 'signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '191', yPosition: '148' }] } }], carbonCopies: [{ roleName: 'cc', recipientId: '2', routingOrder: '2' }] },
  } });
  const envDef = { envelopeDefinition: { templateId, brandId: brand.brandId, templateRoles: [{ name: ARGS.signerName, email: 'template-signer@example.com', roleName: 'signer' }, { name: ARGS.ccName, email: ARGS.ccEmail, roleName: 'cc' }], status: 'sent' } };
  const fromTemplate = await envelopesApi.createEnvelope(h.accountId, envDef);
  assert.equal(fromTemplate.status, 'sent');
  assert.equal((await envelopesApi.getEnvelope(h.accountId, fromTemplate.envelopeId)).brandId, brand.brandId);
  await pollUntil(() => mailTo(smtp, 'template-signer@example.com')[0], { timeoutMs: 15_000, intervalMs: 25, what: 'the template signer’s mail' });
});
