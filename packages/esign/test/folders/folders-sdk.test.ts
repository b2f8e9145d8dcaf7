import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, test, type TestContext } from 'node:test';
import { buildConverter, type Converter } from '@signet/pdf';
import { b64, samplePdf, startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';

// DocuSign's deleteRestoreEnvelope example (code-examples-node lib/eSignature/examples) drives
// FoldersApi: moveEnvelopes into 'recyclebin' with a FoldersRequest of envelopeIds, list to find
// a folder by name, moveEnvelopes back with fromFolderId. The same calls, with the same
// arguments, are made here; nothing of the example is copied.
type Folder = { folderId: string; name: string; type: string; itemCount?: string; folders?: Folder[]; folderItems?: { envelopeId: string; status: string; subject: string }[] };
type FoldersApi = {
  list(accountId: string, opts?: Record<string, string>): Promise<{ folders: Folder[] }>;
  listItems(accountId: string, folderId: string, opts?: Record<string, string>): Promise<{ totalSetSize: string; folders: Folder[] }>;
  moveEnvelopes(accountId: string, folderId: string, opts: { foldersRequest: unknown }): Promise<unknown>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  getEnvelope(accountId: string, envelopeId: string): Promise<{ status: string; voidedReason?: string; deletedDateTime?: string }>;
  listStatusChanges(accountId: string, opts: Record<string, string>): Promise<{ envelopes?: { envelopeId: string }[] }>;
};
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  FoldersApi: new (c: unknown) => FoldersApi;
  EnvelopesApi: new (c: unknown) => EnvelopesApi;
  FoldersRequest: { constructFromObject(o: Record<string, unknown>): unknown };
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

let converter: Converter;
before(async () => {
  converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
});
after(() => converter.close());

function client(origin: string, token: string) {
  const api = new docusign.ApiClient();
  api.setBasePath(`${origin}/restapi`);
  api.addDefaultHeader('Authorization', `Bearer ${token}`);
  return api;
}

/** The example's getFolderIdByName: depth-first, case-insensitive. */
function folderIdByName(folders: readonly Folder[], name: string): string | undefined {
  for (const f of folders) {
    if (f.name.toLowerCase() === name.toLowerCase()) return f.folderId;
    const inner = folderIdByName(f.folders ?? [], name);
    if (inner) return inner;
  }
  return undefined;
}

async function envelope(h: SigningHarness, status: 'sent' | 'created', subject: string): Promise<string> {
  const envelopes = new docusign.EnvelopesApi(client(h.origin, h.token));
  const definition = {
    emailSubject: subject,
    status,
    documents: [{ documentBase64: b64(await samplePdf(1)), documentId: '1', fileExtension: 'pdf', name: 'Agreement' }],
    recipients: { signers: [{ email: 'signer@example.com', name: 'Sam Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '500' }] } }] },
  };
  return (await envelopes.createEnvelope(h.accountId, { envelopeDefinition: definition })).envelopeId;
}

const FROM = new Date(Date.now() - 60_000).toISOString();

test('deleteRestoreEnvelope as DocuSign’s example drives it: the recycle bin voids a sent envelope, hides it from the lists, and gives it back', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const sent = await envelope(h, 'sent', 'Sent one');
  const draft = await envelope(h, 'created', 'Draft one');
  const folders = new docusign.FoldersApi(client(h.origin, h.token));
  const envelopes = new docusign.EnvelopesApi(client(h.origin, h.token));

  const listed = await folders.list(h.accountId);
  assert.deepEqual(listed.folders.map((f) => [f.folderId, f.name, f.type, f.itemCount]), [['inbox', 'Inbox', 'inbox', '0'], ['sentitems', 'Sent Items', 'sentitems', '1'], ['draft', 'Draft', 'draft', '1'], ['recyclebin', 'Deleted Items', 'recyclebin', '0']]);

  // deleteEnvelope: moveEnvelopes(accountId, 'recyclebin', { foldersRequest }).
  const deleted = await folders.moveEnvelopes(h.accountId, 'recyclebin', { foldersRequest: docusign.FoldersRequest.constructFromObject({ envelopeIds: [sent] }) });
  assert.ok(deleted, 'the example treats a falsy result as a failure');
  const voided = await envelopes.getEnvelope(h.accountId, sent);
  assert.equal(voided.status, 'voided');
  assert.match(voided.voidedReason ?? '', /deleted/);
  assert.ok(voided.deletedDateTime);
  const ids = async (opts: Record<string, string>) => ((await envelopes.listStatusChanges(h.accountId, { fromDate: FROM, ...opts })).envelopes ?? []).map((e) => e.envelopeId);
  assert.deepEqual(await ids({}), [draft], 'a deleted envelope leaves the list');
  assert.deepEqual(await ids({ folderIds: 'recyclebin' }), [sent]);
  assert.deepEqual(await ids({ envelopeIds: sent }), [sent], 'asked for by id, it is still found');
  const bin = await folders.listItems(h.accountId, 'recyclebin');
  assert.equal(bin.totalSetSize, '1');
  assert.deepEqual(bin.folders[0]?.folderItems?.map((i) => [i.envelopeId, i.status, i.subject]), [[sent, 'voided', 'Sent one']]);

  // restoreEnvelope: find "Sent Items" by name in list(), move back with fromFolderId.
  const folderId = folderIdByName((await folders.list(h.accountId)).folders, 'sent items');
  assert.equal(folderId, 'sentitems');
  const restored = await folders.moveEnvelopes(h.accountId, folderId ?? '', { foldersRequest: docusign.FoldersRequest.constructFromObject({ envelopeIds: [sent], fromFolderId: 'recyclebin' }) });
  assert.ok(restored);
  assert.deepEqual((await ids({})).sort(), [draft, sent].sort());
  assert.equal((await envelopes.getEnvelope(h.accountId, sent)).deletedDateTime, undefined);
  assert.equal((await folders.listItems(h.accountId, 'recyclebin')).totalSetSize, '0');

  // A draft goes to the bin as a draft (nothing to void) and comes back to Draft.
  await folders.moveEnvelopes(h.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [draft] } });
  assert.equal((await envelopes.getEnvelope(h.accountId, draft)).status, 'created');
  assert.deepEqual((await folders.listItems(h.accountId, 'draft')).folders[0]?.folderItems ?? [], []);
  await folders.moveEnvelopes(h.accountId, 'draft', { foldersRequest: { envelopeIds: [draft], fromFolderId: 'recyclebin' } });
  assert.deepEqual((await folders.listItems(h.accountId, 'draft')).folders[0]?.folderItems?.map((i) => i.envelopeId), [draft]);

  // The audit trail says who deleted and restored.
  const audit = (await (await h.api('GET', `/envelopes/${sent}/audit_events`)).json()) as { auditEvents: { eventFields: { name: string; value: string }[] }[] };
  const actions = audit.auditEvents.map((e) => e.eventFields.find((f) => f.name === 'Action')?.value);
  assert.deepEqual(actions.slice(-3), ['Voided', 'Deleted', 'Restored']);
});

test('folders refuse what they cannot do by name, and another account can neither move nor see an envelope', async (t: TestContext) => {
  const h = await startSigningEsign(t, { converter });
  const mine = await envelope(h, 'sent', 'Mine');
  const folders = new docusign.FoldersApi(client(h.origin, h.token));
  const envelopes = new docusign.EnvelopesApi(client(h.origin, h.token));

  // Another tenant, with a valid token of its own, names my envelope id.
  const other = await secondAccount(h);
  const theirFolders = new docusign.FoldersApi(client(h.origin, other.token));
  assert.deepEqual(await sdkFailure(theirFolders.moveEnvelopes(other.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [mine] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  // ...or my account id in the path: the API guard stops it before any folder code runs.
  assert.equal((await sdkFailure(theirFolders.moveEnvelopes(h.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [mine] } })))[0], 400);
  assert.equal((await envelopes.getEnvelope(h.accountId, mine)).status, 'sent', 'nothing moved, nothing voided');
  const theirs = await theirFolders.list(other.accountId, { includeItems: 'true' });
  assert.ok(theirs.folders.every((f) => f.itemCount === '0' && (f.folderItems ?? []).length === 0));

  // One unknown id among known ones moves none of them.
  assert.deepEqual(await sdkFailure(folders.moveEnvelopes(h.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [mine, '00000000-0000-4000-8000-000000000000'] } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.equal((await envelopes.getEnvelope(h.accountId, mine)).status, 'sent');

  // Folders we do not have, in every place a folder is named.
  assert.deepEqual(await sdkFailure(folders.moveEnvelopes(h.accountId, 'a1b2c3d4-0000-4000-8000-000000000001', { foldersRequest: { envelopeIds: [mine] } })), [400, 'ACCOUNT_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(folders.listItems(h.accountId, 'awaiting_my_signature')), [400, 'ACCOUNT_LACKS_PERMISSIONS']);
  assert.deepEqual(await sdkFailure(envelopes.listStatusChanges(h.accountId, { fromDate: FROM, folderIds: 'out_for_signature' })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await sdkFailure(folders.moveEnvelopes(h.accountId, 'recyclebin', { foldersRequest: { envelopeIds: [mine], folders: [{ folderId: 'x' }] } })), [400, 'INVALID_REQUEST_BODY']);
  // A sent envelope's folder is Sent Items: moving it to Draft would change nothing a folder shows.
  assert.deepEqual(await sdkFailure(folders.moveEnvelopes(h.accountId, 'draft', { foldersRequest: { envelopeIds: [mine] } })), [400, 'ENVELOPE_INVALID_STATUS']);
  // One call moves at most 100 envelopes.
  const many = Array.from({ length: 101 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  assert.deepEqual(await sdkFailure(folders.moveEnvelopes(h.accountId, 'recyclebin', { foldersRequest: { envelopeIds: many } })), [400, 'INVALID_REQUEST_BODY']);
  assert.deepEqual(await sdkFailure(folders.list(h.accountId, { subFolderDepth: '2' })), [400, 'INVALID_REQUEST_PARAMETER']);
});
