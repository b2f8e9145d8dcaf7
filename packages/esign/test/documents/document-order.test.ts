import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, extractText, type Converter } from '@signet/pdf';
import { makeDocx } from '../../../pdf/test/documents.fixture.ts';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';

// Document.order honoured (domain/envelope/document-order.ts, docs/esign-envelopes.md "Document
// order"): on envelope and template create and on documents added or replaced. The first call of
// DocuSign's documentGeneration example (github docusign/code-examples-node,
// lib/eSignature/examples) is made as it makes it: TemplatesApi.updateDocument with a docx
// Document carrying order 1 and pages 1; nothing of the example is copied.
type Doc = { documentId: string; name: string; order: string; pages?: unknown };
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: Doc[] }>;
  updateDocuments(accountId: string, envelopeId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeDocuments: Doc[] }>;
};
type TemplatesApi = {
  createTemplate(accountId: string, opts: { envelopeTemplate: unknown }, cb?: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: { templateId: string } }>;
  updateDocument(accountId: string, templateId: string, documentId: string, opts: { envelopeDefinition: unknown }, cb?: (e: unknown, d: unknown, r: unknown) => void): Promise<{ data: Doc & { pages: unknown[] } }>;
  listDocuments(accountId: string, templateId: string): Promise<{ templateDocuments: Doc[] }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi; TemplatesApi: new (c: unknown) => TemplatesApi }
  & Record<'Signer' | 'Recipients' | 'EnvelopeTemplate' | 'Document' | 'EnvelopeDefinition', Model>;
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;
const noop = () => undefined;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

let h: SigningHarness;
let envelopes: EnvelopesApi;
let templates: TemplatesApi;

/** A one-page PDF whose page says `title`; `order` only when given. */
const pdfDoc = async (documentId: string, title: string, order?: string) => ({ documentBase64: b64(await samplePdf(1, title)), documentId, fileExtension: 'pdf', name: `${title}.pdf`, ...(order !== undefined ? { order } : {}) });
const listed = (docs: readonly Doc[]) => docs.map((d) => [d.documentId, d.order]);

/** The titles of the pages of an envelope's documents merged, in the order the envelope keeps them. */
async function combinedTitles(envelopeId: string): Promise<string[]> {
  const res = await fetch(`${h.origin}/restapi/v2.1/accounts/${h.accountId}/envelopes/${envelopeId}/documents/combined`, { headers: { authorization: `Bearer ${h.token}` } });
  assert.equal(res.status, 200);
  const [doc] = await extractText([new Uint8Array(await res.arrayBuffer())]);
  return (doc?.pages ?? []).map((p) => /(\w+) - page 1/.exec(p.runs.map((r) => r.str).join(' '))?.[1] ?? '?');
}

test('Document.order', async (t: TestContext) => {
  h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  envelopes = new docusign.EnvelopesApi(client);
  templates = new docusign.TemplatesApi(client);

  await t.test('documentGeneration\'s first calls: a template without documents, then updateDocument with a docx given order 1 and pages 1', async () => {
    const signer = docusign.Signer.constructFromObject({ roleName: 'signer', recipientId: '1', routingOrder: '1' });
    const envelopeTemplate = docusign.EnvelopeTemplate.constructFromObject({
      name: 'Offer letter template', description: 'Made through the API', emailSubject: 'Please sign this document', shared: 'false',
      recipients: docusign.Recipients.constructFromObject({ signers: [signer] }), status: 'created',
    });
    const templateId = (await templates.createTemplate(h.accountId, { envelopeTemplate }, noop)).data.templateId;
    const document = docusign.Document.constructFromObject({ documentBase64: b64(await makeDocx('Offer Letter')), name: 'OfferLetterDemo.docx', fileExtension: 'docx', documentId: 1, order: 1, pages: 1 });
    const answer = (await templates.updateDocument(h.accountId, templateId, '1', { envelopeDefinition: docusign.EnvelopeDefinition.constructFromObject({ documents: [document] }) }, noop)).data;
    assert.deepEqual([answer.documentId, answer.name, answer.order, answer.pages.length], ['1', 'OfferLetterDemo.docx', '1', 1]);
    // `pages` is the count the service reads from the document: a wrong one sent changes nothing.
    const again = docusign.Document.constructFromObject({ documentBase64: b64(await samplePdf(2, 'Offer')), name: 'Offer.pdf', fileExtension: 'pdf', documentId: '1', order: '1', pages: '7' });
    const replaced = (await templates.updateDocument(h.accountId, templateId, '1', { envelopeDefinition: { documents: [again] } }, noop)).data;
    assert.equal(replaced.pages.length, 2);
  });

  await t.test('an envelope\'s documents listed out of order are kept by their order: listDocuments, the merged PDF', async () => {
    const { envelopeId } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: {
      emailSubject: 'Ordered', status: 'created',
      documents: [await pdfDoc('1', 'Annex', '3'), await pdfDoc('2', 'Contract', '1'), await pdfDoc('3', 'Schedule', '2')],
      recipients: { signers: [{ email: 'o@example.com', name: 'O', recipientId: '1', tabs: { signHereTabs: [{ anchorString: 'Signature:', anchorXOffset: '80' }] } }] },
    } });
    assert.deepEqual(listed((await envelopes.listDocuments(h.accountId, envelopeId)).envelopeDocuments), [['2', '1'], ['3', '2'], ['1', '3']]);
    assert.deepEqual(await combinedTitles(envelopeId), ['Contract', 'Schedule', 'Annex']);
    // Without any order, as listed; with some, the others keep their places.
    const { envelopeId: plain } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { emailSubject: 'Listed', status: 'created', documents: [await pdfDoc('1', 'Annex'), await pdfDoc('2', 'Contract'), await pdfDoc('3', 'Schedule', '1')] } });
    assert.deepEqual(listed((await envelopes.listDocuments(h.accountId, plain)).envelopeDocuments), [['3', '1'], ['1', '2'], ['2', '3']]);
  });

  await t.test('a draft\'s documents added and replaced with an order move there; the others keep theirs; listDocuments\' own entries sent back keep the order', async () => {
    const { envelopeId } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { emailSubject: 'Draft', status: 'created', documents: [await pdfDoc('1', 'Contract'), await pdfDoc('2', 'Schedule')] } });
    // A new document asking for place 1 goes first; one without order goes last.
    const added = await envelopes.updateDocuments(h.accountId, envelopeId, { envelopeDefinition: { documents: [await pdfDoc('3', 'Cover', '1'), await pdfDoc('4', 'Annex')] } });
    assert.deepEqual(listed(added.envelopeDocuments), [['3', '1'], ['1', '2'], ['2', '3'], ['4', '4']]);
    // Replaced without an order: it keeps its place. Replaced with one: it moves.
    await envelopes.updateDocuments(h.accountId, envelopeId, { envelopeDefinition: { documents: [await pdfDoc('2', 'Schedule')] } });
    const moved = await envelopes.updateDocuments(h.accountId, envelopeId, { envelopeDefinition: { documents: [await pdfDoc('4', 'Annex', '2')] } });
    assert.deepEqual(listed(moved.envelopeDocuments), [['3', '1'], ['4', '2'], ['1', '3'], ['2', '4']]);
    assert.deepEqual(await combinedTitles(envelopeId), ['Cover', 'Annex', 'Contract', 'Schedule']);
    // What listDocuments answers (order, pages as a list of pages, type, uri…), with new bytes: accepted, nothing moves.
    const entries = (await envelopes.listDocuments(h.accountId, envelopeId)).envelopeDocuments;
    const sentBack = await Promise.all(entries.map(async (d) => ({ ...d, documentBase64: (await pdfDoc(d.documentId, `${d.name.replace('.pdf', '')}`)).documentBase64 })));
    const unchanged = await envelopes.updateDocuments(h.accountId, envelopeId, { envelopeDefinition: { documents: sentBack } });
    assert.deepEqual(listed(unchanged.envelopeDocuments), [['3', '1'], ['4', '2'], ['1', '3'], ['2', '4']]);
  });

  await t.test('a template\'s documents by their order, and the envelopes made from it', async () => {
    const { data: { templateId } } = await templates.createTemplate(h.accountId, { envelopeTemplate: {
      name: 'Ordered template', emailSubject: 'From the template',
      documents: [await pdfDoc('1', 'Annex', '2'), await pdfDoc('2', 'Contract', '1')],
      recipients: { signers: [{ roleName: 'signer', recipientId: '1', tabs: { signHereTabs: [{ anchorString: 'Signature:', anchorXOffset: '80' }] } }] },
    } }, noop);
    assert.deepEqual(listed((await templates.listDocuments(h.accountId, templateId)).templateDocuments), [['2', '1'], ['1', '2']]);
    const { envelopeId } = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { templateId, status: 'created', templateRoles: [{ roleName: 'signer', name: 'Sam', email: 'sam@example.com' }] } });
    assert.deepEqual(await combinedTitles(envelopeId), ['Contract', 'Annex']);
  });

  await t.test('an order that is not a positive integer is refused by name, nothing made', async () => {
    for (const order of ['0', 'first', '1.5']) {
      const failure = await envelopes.createEnvelope(h.accountId, { envelopeDefinition: { emailSubject: 'Bad', status: 'created', documents: [await pdfDoc('1', 'Contract', order)] } }).then(() => undefined, (err: { response: { status: number; data: { errorCode: string; message: string } } }) => err.response);
      assert.equal(failure?.status, 400, order);
      assert.match(failure.data.message, /documents\[0\]\.order must be (an integer from 1 to 2147483647|a number)/, order);
    }
    assert.deepEqual(await sdkFailure(templates.updateDocument(h.accountId, 'no-such-template', '1', { envelopeDefinition: { documents: [await pdfDoc('1', 'Contract', '-1')] } })), [400, 'INVALID_REQUEST_BODY']);
  });
});
