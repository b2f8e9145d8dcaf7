import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';

// The official SDK, unmodified: only what this test calls is typed.
type WireRadio = { tabId: string; value: string; selected?: string; documentId: string; pageNumber: string };
type WireTab = { tabId: string; groupName?: string; tabLabel?: string; value?: string; selected?: string; documentId?: string; pageNumber?: string; xPosition?: string; yPosition?: string; anchorString?: string; radios?: WireRadio[] };
type WireTabs = Record<string, WireTab[] | undefined>;
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  listTabs(accountId: string, envelopeId: string, recipientId: string): Promise<WireTabs>;
  deleteTabs(accountId: string, envelopeId: string, recipientId: string, opts: { tabs: unknown }): Promise<WireTabs>;
  listDocuments(accountId: string, envelopeId: string): Promise<{ envelopeDocuments: { documentId: string }[] }>;
  updateDocument(bytes: Buffer, accountId: string, envelopeId: string, documentId: string): Promise<unknown>;
  deleteDocuments(accountId: string, envelopeId: string, opts: { envelopeDefinition: unknown }): Promise<unknown>;
};
type Sdk = { ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void }; EnvelopesApi: new (c: unknown) => EnvelopesApi };
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

const at = (documentId: string, pageNumber: number, x: number, y: number) => ({ documentId, pageNumber: String(pageNumber), xPosition: String(x), yPosition: String(y) });

test('a draft’s documents replaced and deleted: every tab type placed again on the placed-tab model, values and tabIds kept, nothing left on a removed document, a dangling condition refused', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const client = new docusign.ApiClient();
  client.setBasePath(`${h.origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${h.token}`);
  const api = new docusign.EnvelopesApi(client);
  const acc = h.accountId;
  const { envelopeId } = await api.createEnvelope(acc, { envelopeDefinition: {
    emailSubject: 'Tabs on a changing draft', status: 'created',
    documents: [{ documentBase64: b64(await samplePdf(1, 'One')), documentId: '1', fileExtension: 'pdf', name: 'One' }, { documentBase64: b64(await samplePdf(2, 'Two')), documentId: '2', fileExtension: 'pdf', name: 'Two' }],
    recipients: { signers: [{ email: 's@example.com', name: 'Sam', recipientId: '1', tabs: {
      signHereTabs: [{ anchorString: 'Signature:', anchorXOffset: '80', anchorYOffset: '0', anchorUnits: 'pixels' }],
      textTabs: [
        { tabLabel: 'Name', value: 'Ada', ...at('2', 2, 100, 100) },
        { tabLabel: 'Why', ...at('2', 1, 100, 300), conditionalParentLabel: 'Agree', conditionalParentValue: 'on' },
      ],
      checkboxTabs: [{ tabLabel: 'Agree', selected: 'true', ...at('1', 1, 50, 50) }],
      radioGroupTabs: [
        { groupName: 'Plan', documentId: '1', radios: [{ value: 'A', selected: 'true', pageNumber: '1', xPosition: '100', yPosition: '400' }, { value: 'B', pageNumber: '1', xPosition: '100', yPosition: '450' }] },
        { groupName: 'Term', documentId: '2', radios: [{ value: '1y', pageNumber: '1', xPosition: '100', yPosition: '400' }, { value: '2y', selected: 'true', pageNumber: '2', xPosition: '100', yPosition: '450' }] },
      ],
    } }] },
  } });
  const tabs = () => api.listTabs(acc, envelopeId, '1');
  const before = await tabs();
  const name = before.textTabs?.find((x) => x.tabLabel === 'Name') ?? assert.fail('the Name tab');
  const term = before.radioGroupTabs?.find((g) => g.groupName === 'Term') ?? assert.fail('the Term group');
  const rows = async () => (await h.store.db.kysely.selectFrom('envelope_tabs').select(['document_id', 'radios_json']).where('envelope_id', '=', envelopeId).execute());

  // A replacing document with one page: the Name tab on page 2 has nowhere to go; refused, nothing changed.
  assert.deepEqual(await sdkFailure(api.updateDocument(Buffer.from(await samplePdf(1, 'Two, short')), acc, envelopeId, '2')), [400, 'TAB_PAGENUMBER_IS_NOT_IN_DOCUMENT']);
  assert.deepEqual(await tabs(), before);

  // Document 2 replaced by another two-page PDF: positioned tabs keep their tabId, spot and value; the anchor is searched again.
  await api.updateDocument(Buffer.from(await samplePdf(2, 'Two, revised')), acc, envelopeId, '2');
  const replaced = await tabs();
  const nameAgain = replaced.textTabs?.find((x) => x.tabLabel === 'Name');
  assert.deepEqual([nameAgain?.tabId, nameAgain?.value, nameAgain?.documentId, nameAgain?.pageNumber, nameAgain?.xPosition], [name.tabId, 'Ada', '2', '2', '100']);
  assert.deepEqual(replaced.checkboxTabs?.map((x) => [x.tabLabel, x.selected]), [['Agree', 'true']]);
  assert.deepEqual(replaced.radioGroupTabs?.map((g) => [g.groupName, g.radios?.map((r) => [r.tabId, r.value, r.pageNumber, r.selected])]), before.radioGroupTabs?.map((g) => [g.groupName, g.radios?.map((r) => [r.tabId, r.value, r.pageNumber, r.selected])]));
  assert.deepEqual(replaced.signHereTabs?.map((x) => [x.documentId, x.pageNumber]).sort(), [['1', '1'], ['2', '1'], ['2', '2']]);

  // Deleting document 1 would take the checkbox the Why tab's condition reads: refused by name, nothing changed.
  assert.deepEqual(await sdkFailure(api.deleteDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '1' }] } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual((await api.listDocuments(acc, envelopeId)).envelopeDocuments.map((d) => d.documentId), ['1', '2']);
  assert.deepEqual(await tabs(), replaced);

  // Without the conditional tab, document 1 goes with every tab on it (the Plan group too); Term on document 2 stays as chosen.
  const why = replaced.textTabs?.find((x) => x.tabLabel === 'Why') ?? assert.fail('the Why tab');
  await api.deleteTabs(acc, envelopeId, '1', { tabs: { textTabs: [{ tabId: why.tabId }] } });
  await api.deleteDocuments(acc, envelopeId, { envelopeDefinition: { documents: [{ documentId: '1' }] } });
  const left = await tabs();
  assert.deepEqual(left.checkboxTabs ?? [], []);
  assert.deepEqual(left.textTabs?.map((x) => [x.tabId, x.value]), [[name.tabId, 'Ada']]);
  assert.deepEqual(left.radioGroupTabs?.map((g) => [g.groupName, g.documentId, g.radios?.map((r) => [r.tabId, r.selected])]), [['Term', '2', term.radios?.map((r) => [r.tabId, r.selected])]]);
  assert.deepEqual(left.signHereTabs?.map((x) => x.documentId), ['2', '2']);
  // No placed tab (nor a radio of one) is stored on the removed document.
  const stored = await rows();
  assert.equal(stored.length, 4, 'signHere ×2, Name, Term');
  for (const r of stored) {
    assert.equal(r.document_id, '2');
    for (const radio of (r.radios_json ? JSON.parse(r.radios_json) : []) as { documentId: string }[]) assert.equal(radio.documentId, '2');
  }
});
