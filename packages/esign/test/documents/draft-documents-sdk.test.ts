import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';

type Doc = { documentId: string; name: string; pages?: unknown[] };
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  update(accountId: string, envelopeId: string, opts: { envelope: unknown }): Promise<unknown>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: Doc[] }>;
  listRecipients(accountId: string, envelopeId: string, opts: Record<string, string>): Promise<{ signers: { tabs?: { signHereTabs: { tabId: string; documentId: string; pageNumber: string; anchorString?: string }[] } }[] }>;
  updateDocuments(accountId: string, envelopeId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string; envelopeDocuments: Doc[] }>;
  updateDocument(bytes: Buffer, accountId: string, envelopeId: string, documentId: string): Promise<Doc>;
  deleteDocuments(accountId: string, envelopeId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeDocuments: Doc[] }>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function envelopesApi(origin: string, token: string): EnvelopesApi {
  const api = new docusign.ApiClient();
  api.setBasePath(`${origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${token}`);
  return new docusign.EnvelopesApi(api);
}

const pdfDoc = async (documentId: string, name: string, pages: number) => ({ documentBase64: b64(await samplePdf(pages, name)), documentId, fileExtension: 'pdf', name });

test('a draft’s documents added, replaced and deleted through the SDK: converted and checked as a create, tabs placed again, refused once sent, never another account’s', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const api = envelopesApi(h.origin, h.token);
  const acc = h.accountId;
  const { envelopeId } = await api.createEnvelope(acc, { envelopeDefinition: {
    emailSubject: 'Draft with documents', status: 'created',
    documents: [await pdfDoc('1', 'One', 1)],
    recipients: { signers: [{ email: 's@example.com', name: 'Sam', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }, { anchorString: 'Signature:', anchorXOffset: '80', anchorYOffset: '0', anchorUnits: 'pixels' }] } }] },
  } });
  const tabs = async () => (await api.listRecipients(acc, envelopeId, { includeTabs: 'true' })).signers[0]?.tabs?.signHereTabs ?? [];
  const positioned = (await tabs()).find((x) => x.anchorString === undefined) ?? assert.fail('the positioned tab');

  // updateDocuments: a two-page document added; the anchor is found on its pages too.
  const added = await api.updateDocuments(acc, envelopeId, { envelopeDefinition: { documents: [await pdfDoc('2', 'Two', 2)] } });
  assert.deepEqual(added.envelopeDocuments.map((d) => [d.documentId, d.name, d.pages?.length]), [['1', 'One', 1], ['2', 'Two', 2]]);
  assert.deepEqual((await tabs()).map((x) => [x.documentId, x.pageNumber, x.anchorString ?? x.tabId]).sort(), [['1', '1', 'Signature:'], ['1', '1', positioned.tabId], ['2', '1', 'Signature:'], ['2', '2', 'Signature:']].sort());

  // updateDocument: the SDK's raw bytes (Content-Type application/pdf) replace document 2; it keeps its name.
  const replaced = await api.updateDocument(Buffer.from(await samplePdf(1, 'Two again')), acc, envelopeId, '2');
  assert.deepEqual([replaced.documentId, replaced.name, replaced.pages?.length], ['2', 'Two', 1]);
  assert.deepEqual((await tabs()).filter((x) => x.documentId === '2').map((x) => x.pageNumber), ['1']);

  // deleteDocuments: document 1 goes, with every tab on it; the positioned tab with it.
  const left = await api.deleteDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '1' }] } });
  assert.deepEqual(left.envelopeDocuments.map((d) => d.documentId), ['2']);
  assert.deepEqual((await tabs()).map((x) => [x.documentId, x.anchorString]), [['2', 'Signature:']]);

  // Checked as a create: a broken PDF, an unsupported format, a field that would be ignored; nothing changes.
  assert.deepEqual(await sdkFailure(api.updateDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '3', name: 'Bad', fileExtension: 'pdf', documentBase64: b64(new TextEncoder().encode('%PDF-1.7 not really')) }] } })), [400, 'PDF_VALIDATION_FAILED']);
  assert.deepEqual(await sdkFailure(api.updateDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '3', name: 'Run me', fileExtension: 'exe', documentBase64: b64(new TextEncoder().encode('MZ')) }] } })), [400, 'FORMAT_CONVERSION_ERROR']);
  assert.deepEqual(await sdkFailure(api.updateDocuments(acc, envelopeId, { envelopeDefinition: { status: 'sent', documents: [await pdfDoc('3', 'Three', 1)] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(api.deleteDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '9' }] } })), [400, 'DOCUMENT_DOES_NOT_EXIST']);
  // Limits: 50 documents an envelope, 25 MB a document.
  const many = Array.from({ length: 50 }, (_, i) => ({ documentId: String(10 + i), name: `D${i}`, fileExtension: 'pdf', documentBase64: 'JVBERg==' }));
  assert.deepEqual(await sdkFailure(api.updateDocuments(acc, envelopeId, { envelopeDefinition: { documents: many } })), [400, 'INVALID_REQUEST_BODY']);
  // (Over the raw HTTP the SDK's updateDocument uses: its axios refuses bodies above 10 MB itself.)
  const huge = await fetch(`${h.origin}/restapi/v2.1/accounts/${acc}/envelopes/${envelopeId}/documents/4`, { method: 'PUT', headers: { authorization: `Bearer ${h.token}`, 'content-type': 'application/pdf' }, body: Buffer.alloc(25 * 1024 * 1024 + 1, 0x25) });
  assert.deepEqual([huge.status, ((await huge.json()) as { errorCode: string }).errorCode], [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual((await api.listDocuments(acc, envelopeId)).envelopeDocuments.map((d) => d.documentId), ['2'], 'nothing of the refused calls stayed');

  // Another account, with a valid token of its own, names this draft: nothing is read or changed.
  const other = await secondAccount(h);
  const theirs = envelopesApi(h.origin, other.token);
  for (const call of [
    async () => theirs.updateDocuments(other.accountId, envelopeId, { envelopeDefinition: { documents: [await pdfDoc('7', 'Planted', 1)] } }),
    async () => theirs.updateDocument(Buffer.from(await samplePdf(1, 'Planted')), other.accountId, envelopeId, '2'),
    () => theirs.deleteDocuments(other.accountId, envelopeId, { envelopeDefinition: { documents: [{ documentId: '2' }] } }),
  ]) assert.deepEqual(await sdkFailure(call()), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual((await api.listDocuments(acc, envelopeId)).envelopeDocuments.map((d) => [d.documentId, d.name]), [['2', 'Two']]);

  // Once sent, the recipients know what they sign: DocuSign's ENVELOPE_INVALID_STATUS.
  await api.update(acc, envelopeId, { envelope: { status: 'sent' } });
  assert.deepEqual(await sdkFailure(api.updateDocuments(acc, envelopeId, { envelopeDefinition: { documents: [await pdfDoc('3', 'Late', 1)] } })), [400, 'ENVELOPE_INVALID_STATUS']);
  assert.deepEqual(await sdkFailure(api.updateDocument(Buffer.from(await samplePdf(1, 'Late')), acc, envelopeId, '2')), [400, 'ENVELOPE_INVALID_STATUS']);
  assert.deepEqual(await sdkFailure(api.deleteDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '2' }] } })), [400, 'ENVELOPE_INVALID_STATUS']);
});
