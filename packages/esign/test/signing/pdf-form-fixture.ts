import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { TestContext } from 'node:test';
import { PDFDocument, PDFString, StandardFonts } from 'pdf-lib';
import type { Converter } from '@signet/pdf';
import { b64, startSigningEsign, type SigningHarness } from './signing-harness.ts';

// What the transformPdfFields tests share: a PDF form of every field kind made with pdf-lib, the
// docusign-esign SDK pointed at a fresh esign, pdftotext, and the DocuSign error of a refused call.

const run = promisify(execFile);

export type WireTab = { tabLabel?: string; groupName?: string; value?: string; selected?: string; locked?: string; required?: string; optional?: string; maxLength?: string; pageNumber?: string; xPosition?: string; yPosition?: string; width?: string; radios?: WireTab[]; listItems?: { text: string; value: string }[] };
export type SdkEnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  createRecipientView(accountId: string, envelopeId: string, opts: { recipientViewRequest: unknown }): Promise<{ url: string }>;
  getDocument(accountId: string, envelopeId: string, documentId: string, opts?: Record<string, string>): Promise<Buffer>;
  getFormData(accountId: string, envelopeId: string): Promise<{ recipientFormData?: { formData?: { name: string; value: string }[] }[] }>;
  listTabs(accountId: string, envelopeId: string, recipientId: string): Promise<Record<string, WireTab[]>>;
  listRecipients(accountId: string, envelopeId: string): Promise<{ signers: { recipientId: string; status: string }[] }>;
};
export type SdkTemplatesApi = { createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }> };
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (client: unknown) => SdkEnvelopesApi; TemplatesApi: new (client: unknown) => SdkTemplatesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

/** A Letter page with a form: every field kind, a locked one, DocuSign-named ones, one to ignore. */
export async function orderForm(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  page.drawText('Order form', { x: 72, y: 740, size: 18, font });
  const form = pdf.getForm();
  const box = (y: number, x = 72, width = 200) => ({ x, y, width, height: 20, borderWidth: 0 });
  const name = form.createTextField('buyer.name');
  name.setText('Ada');
  name.setMaxLength(40);
  name.enableRequired();
  name.addToPage(page, box(680));
  const reference = form.createTextField('Reference');
  reference.setText('REF-7');
  reference.enableReadOnly();
  reference.addToPage(page, box(680, 330));
  const terms = form.createCheckBox('terms');
  terms.enableRequired();
  terms.addToPage(page, { x: 72, y: 640, width: 14, height: 14, borderWidth: 0 });
  const plan = form.createRadioGroup('plan');
  plan.addOptionToPage('basic', page, { x: 72, y: 600, width: 14, height: 14, borderWidth: 0 });
  plan.addOptionToPage('pro', page, { x: 140, y: 600, width: 14, height: 14, borderWidth: 0 });
  plan.select('basic');
  const colour = form.createDropdown('colour');
  colour.addOptions(['red', 'blue']);
  colour.addToPage(page, box(560));
  form.createTextField('eSignDateSigned').addToPage(page, box(520));
  const footer = form.createTextField('footer eSignIgnoreTransform');
  footer.setText('Printed by the sender');
  footer.addToPage(page, box(60));
  // pdf-lib makes no signature fields: one by hand, a widget with /FT /Sig named by DocuSign's rule.
  const sig = pdf.context.obj({ Type: 'Annot', Subtype: 'Widget', FT: 'Sig', T: PDFString.of('Buyer eSignSignHere'), Rect: [72, 400, 252, 440], F: 4, P: page.ref });
  const sigRef = pdf.context.register(sig);
  page.node.addAnnot(sigRef);
  form.acroForm.addField(sigRef);
  return pdf.save();
}

export function documentOf(bytes: Uint8Array, extra: Record<string, string> = {}) {
  return { documentBase64: b64(bytes), documentId: '1', fileExtension: 'pdf', name: 'Order form', transformPdfFields: 'true', ...extra };
}

export async function pdfText(pdf: Uint8Array): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-form-text-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    return (await run('pdftotext', ['-layout', join(dir, 'in.pdf'), '-'])).stdout;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The DocuSign error an SDK call was refused with. */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; errorCode: string; message: string }> {
  try {
    await call;
  } catch (err) {
    const e = err as { response?: { status: number; body?: { errorCode: string; message: string }; data?: { errorCode: string; message: string } } };
    const body = e.response?.body ?? e.response?.data;
    if (e.response && body) return { status: e.response.status, ...body };
    throw err;
  }
  throw new Error('the call was not refused');
}

/** esign for one test (closed with it) and the SDK pointed at it. */
export async function startFormEsign(t: TestContext, converter: Converter): Promise<{ h: SigningHarness; sdk: SdkEnvelopesApi; templates: SdkTemplatesApi }> {
  const h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return { h, sdk: new docusign.EnvelopesApi(client), templates: new docusign.TemplatesApi(client) };
}

/** A one-page form of text fields (and the extras asked for), each field a small box of its own. */
export async function formOf(names: readonly string[], extra?: (pdf: PDFDocument) => void): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([612, 792]);
  const form = pdf.getForm();
  names.forEach((name, i) => form.createTextField(name).addToPage(page, { x: 10 + (i % 40) * 14, y: 10 + Math.floor(i / 40) * 14, width: 12, height: 12, borderWidth: 0 }));
  extra?.(pdf);
  return pdf.save();
}

