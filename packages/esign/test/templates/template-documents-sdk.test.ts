import { sdkFailure } from '../support/sdk-failure.ts';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';

// The official SDK, unmodified: only what this test calls is typed.
type Tab = { tabId: string; documentId: string; pageNumber: string; xPosition: string; yPosition: string };
type DocumentsResult = { templateDocuments: { documentId: string; name: string; pages: unknown[] }[] };
type TemplatesApi = {
  createTemplate(accountId: string, opts: { envelopeTemplate: unknown }): Promise<{ templateId: string }>;
  updateDocuments(accountId: string, templateId: string, opts: { envelopeDefinition: unknown }): Promise<DocumentsResult>;
  updateDocument(accountId: string, templateId: string, documentId: string, opts: { envelopeDefinition: unknown }): Promise<{ documentId: string; name: string; pages: unknown[] }>;
  deleteDocuments(accountId: string, templateId: string, opts: { envelopeDefinition: unknown }): Promise<DocumentsResult>;
  listTabs(accountId: string, templateId: string, recipientId: string): Promise<{ signHereTabs?: Tab[] }>;
  createRecipients(accountId: string, templateId: string, opts: { templateRecipients: unknown }): Promise<unknown>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string; name: string }[] }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; TemplatesApi: new (c: unknown) => TemplatesApi; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

/** A signing esign over the shared converter, and the SDK's APIs as its seeded user. */
async function sdkOnNewEsign(t: TestContext): Promise<{ templates: TemplatesApi; envelopes: EnvelopesApi; acc: string }> {
  const h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  return { templates: new docusign.TemplatesApi(client), envelopes: new docusign.EnvelopesApi(client), acc: h.accountId };
}


test('template documents through the SDK: added, replaced and deleted; anchors searched again, positioned tabs kept; envelopes already made keep theirs', async (t: TestContext) => {
  const { templates, envelopes, acc } = await sdkOnNewEsign(t);
  // samplePdf writes "Signature:" on every page: the anchor matches once per page.
  const { templateId } = await templates.createTemplate(acc, { envelopeTemplate: {
    name: 'Contract',
    documents: [{ documentBase64: b64(await samplePdf(2, 'Contract')), documentId: '1', name: 'Contract.pdf' }],
    recipients: { signers: [{ roleName: 'signer', recipientId: '1', tabs: { signHereTabs: [{ anchorString: 'Signature:', anchorXOffset: '80' }, { documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '500' }] } }] },
  } });
  const tabs = async () => (await templates.listTabs(acc, templateId, '1')).signHereTabs ?? [];
  const positioned = (await tabs()).find((x) => x.xPosition === '300');
  assert.ok(positioned);
  const before = await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId, status: 'created', templateRoles: [{ roleName: 'signer', name: 'Sam', email: 'sam@example.com' }] } });

  // updateDocuments: a new documentId adds an HTML document; the anchor is found in it too.
  const html = '<!doctype html><html><body><p>Annex</p><p>Signature: ____</p></body></html>';
  const added = await templates.updateDocuments(acc, templateId, { envelopeDefinition: { documents: [{ documentBase64: Buffer.from(html).toString('base64'), documentId: '2', name: 'Annex', fileExtension: 'html' }] } });
  assert.deepEqual(added.templateDocuments.map((d) => [d.documentId, d.name]), [['1', 'Contract.pdf'], ['2', 'Annex']]);
  assert.deepEqual((await tabs()).map((x) => [x.documentId, x.pageNumber]).sort(), [['1', '1'], ['1', '1'], ['1', '2'], ['2', '1']]);

  // updateDocument: document 1 replaced by a one-page PDF; the positioned tab keeps its id and place.
  const replaced = await templates.updateDocument(acc, templateId, '1', { envelopeDefinition: { documents: [{ documentBase64: b64(await samplePdf(1, 'Contract v2')), documentId: '1', name: 'Contract v2.pdf' }] } });
  assert.deepEqual([replaced.documentId, replaced.name, replaced.pages.length], ['1', 'Contract v2.pdf', 1]);
  const afterReplace = await tabs();
  assert.deepEqual(afterReplace.map((x) => [x.documentId, x.pageNumber]).sort(), [['1', '1'], ['1', '1'], ['2', '1']]);
  assert.deepEqual(afterReplace.filter((x) => x.tabId === positioned.tabId).map((x) => [x.documentId, x.pageNumber, x.xPosition, x.yPosition]), [['1', '1', '300', '500']]);

  // deleteDocuments: document 2 goes, with the tabs on it.
  const left = await templates.deleteDocuments(acc, templateId, { envelopeDefinition: { documents: [{ documentId: '2' }] } });
  assert.deepEqual(left.templateDocuments.map((d) => d.documentId), ['1']);
  assert.deepEqual((await tabs()).map((x) => x.documentId), ['1', '1']);

  // Refused, nothing changed: a positioned tab's page missing from the replacement, an unknown document, a mismatched id.
  const blank = b64(await samplePdf(1, 'x'));
  assert.deepEqual(await sdkFailure(templates.createTemplate(acc, { envelopeTemplate: { documents: [{ documentBase64: blank, documentId: '1', name: 'x.pdf' }], recipients: { signers: [{ roleName: 's', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '2', xPosition: '1', yPosition: '1' }] } }] } } })), [400, 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT']);
  assert.deepEqual(await sdkFailure(templates.deleteDocuments(acc, templateId, { envelopeDefinition: { documents: [{ documentId: '9' }] } })), [400, 'DOCUMENT_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(templates.updateDocument(acc, templateId, '1', { envelopeDefinition: { documents: [{ documentBase64: blank, documentId: '4', name: 'x.pdf' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(templates.updateDocuments(acc, templateId, { envelopeDefinition: { documents: [{ documentBase64: 'JVBERi0=', documentId: '1', name: 'broken.pdf' }] } })), [400, 'PDF_VALIDATION_FAILED']);
  assert.equal((await tabs()).length, 2);

  // The envelope made before the changes still has the original document.
  assert.deepEqual((await envelopes.listDocuments(acc, before.envelopeId)).envelopeDocuments.map((d) => [d.documentId, d.name]), [['1', 'Contract.pdf']]);
});

test('a template grows by parts no further than an envelope may hold (50 documents, 100 recipients), nor does an envelope composed of templates', async (t: TestContext) => {
  // A review grew a template by repeated updateDocuments and createRecipients to 200 documents
  // and 400 signers, then made an envelope of it: each call was bounded, the whole was not.
  const { templates, envelopes, acc } = await sdkOnNewEsign(t);
  const pdf = b64(await samplePdf(1, 'Page'));
  const documents = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ documentBase64: pdf, documentId: String(from + i), name: `D${from + i}.pdf` }));
  const signers = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({ roleName: `r${from + i}`, recipientId: String(from + i) }));
  const make = async (name: string) => (await templates.createTemplate(acc, { envelopeTemplate: { name, documents: documents(1, 30), recipients: { signers: signers(1, 60) } } })).templateId;
  const first = await make('First');

  assert.deepEqual(await sdkFailure(templates.updateDocuments(acc, first, { envelopeDefinition: { documents: documents(31, 21) } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(templates.createRecipients(acc, first, { templateRecipients: { signers: signers(61, 41) } })), [400, 'INVALID_REQUEST_BODY']);
  // Up to the bounds is fine.
  await templates.updateDocuments(acc, first, { envelopeDefinition: { documents: documents(31, 20) } });
  await templates.createRecipients(acc, first, { templateRecipients: { signers: signers(61, 40) } });

  // Two templates within the bounds, composed: 80 documents, 120 roles.
  const second = await make('Second');
  const composed = await sdkFailure(envelopes.createEnvelope(acc, { envelopeDefinition: { status: 'created', compositeTemplates: [
    { compositeTemplateId: '1', serverTemplates: [{ sequence: '1', templateId: first }] },
    { compositeTemplateId: '2', serverTemplates: [{ sequence: '1', templateId: second }] },
  ] } }));
  assert.deepEqual(composed, [400, 'INVALID_REQUEST_BODY']);
  // Each alone makes an envelope.
  assert.ok((await envelopes.createEnvelope(acc, { envelopeDefinition: { templateId: first, status: 'created' } })).envelopeId);
});
