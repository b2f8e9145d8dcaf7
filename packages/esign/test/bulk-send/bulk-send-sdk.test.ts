import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test, type TestContext } from 'node:test';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { pollUntil } from '@signet/kit';
import { extractText, validatePdf } from '@signet/pdf';
import { startSigningEsign, type SigningHarness } from '../signing/signing-harness.ts';
import { sdkFailure } from '../support/sdk-failure.ts';
import { secondAccount } from '../support/second-account.ts';

// DocuSign's public bulkSendEnvelope example (github docusign/code-examples-node,
// lib/eSignature/examples/bulkSendEnvelope.js) makes these SDK calls in this order with these
// arguments: createBulkSendList, createEnvelope (a draft with placeholder recipients and an
// anchored SignHere), createCustomFields, createBulkSendRequest, getBulkSendBatchStatus. The test
// makes the same calls from the example's documented inputs; nothing of the example is copied.
type Recipient = { recipientId: string; email: string; name: string; roleName?: string; status: string; tabs?: { textTabs?: { tabLabel: string; value: string }[] } };
type Envelope = { envelopeId: string; status: string; emailSubject: string; recipients?: { signers: Recipient[]; carbonCopies: Recipient[] }; customFields?: { textCustomFields: { name: string; value: string }[] } };
type BatchStatus = { batchId: string; batchSize: string; queued: string; sent: string; failed: string; mailingListId: string; envelopeIdOrTemplateId: string; bulkErrors?: { errorMessage: string; recipientEmails: string[] }[] };
type BulkApi = {
  createBulkSendList(accountId: string, opts: { bulkSendingList: unknown }): Promise<{ listId: string; name: string; bulkCopies: unknown[] }>;
  getBulkSendList(accountId: string, listId: string): Promise<{ listId: string; name: string; bulkCopies: { recipients: { email?: string }[] }[] }>;
  getBulkSendLists(accountId: string): Promise<{ bulkListSummaries: { bulkSendListId: string; name: string }[] }>;
  updateBulkSendList(accountId: string, listId: string, opts: { bulkSendingList: unknown }): Promise<{ name: string }>;
  deleteBulkSendList(accountId: string, listId: string): Promise<unknown>;
  createBulkSendRequest(accountId: string, listId: string, opts: { bulkSendRequest: unknown }): Promise<{ batchId: string; batchSize: string }>;
  createBulkSendTestRequest(accountId: string, listId: string, opts: { bulkSendRequest: unknown }): Promise<{ canBeSent: boolean; validationErrorDetails: string[] }>;
  getBulkSendBatchStatus(accountId: string, batchId: string): Promise<BatchStatus>;
  getBulkSendBatches(accountId: string, opts?: Record<string, string>): Promise<{ bulkBatchSummaries: { batchId: string; sent: string }[]; totalSetSize: string }>;
  getBulkSendBatchEnvelopes(accountId: string, batchId: string, opts?: Record<string, string>): Promise<{ envelopes: Envelope[]; totalSetSize: string }>;
  updateBulkSendBatchAction(accountId: string, batchId: string, action: string, opts: unknown): Promise<unknown>;
};
type EnvelopesApi = {
  createEnvelope(accountId: string, opts: { envelopeDefinition: unknown }): Promise<{ envelopeId: string }>;
  createCustomFields(accountId: string, envelopeId: string, opts: { customFields: unknown }): Promise<unknown>;
  getEnvelope(accountId: string, envelopeId: string, opts?: Record<string, string>): Promise<Envelope>;
};
type Model = { constructFromObject(o: Record<string, unknown>): Record<string, unknown> };
type Sdk = {
  ApiClient: new () => { setBasePath(p: string): void; addDefaultHeader(k: string, v: string): void };
  BulkEnvelopesApi: new (c: unknown) => BulkApi;
  EnvelopesApi: new (c: unknown) => EnvelopesApi;
  Tabs: Model;
  SignHere: Model;
};
const docusign = createRequire(import.meta.url)('docusign-esign') as Sdk;

function apis(origin: string, token: string) {
  const client = new docusign.ApiClient();
  client.setBasePath(`${origin}/restapi`);
  client.addDefaultHeader('Authorization', `Bearer ${token}`);
  return { bulk: new docusign.BulkEnvelopesApi(client), envelopes: new docusign.EnvelopesApi(client) };
}

/** The example's docFile: a PDF carrying its /sn1/ anchor. */
async function anchoredPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('Lorem ipsum dolor sit amet.', { x: 72, y: 700, size: 14, font });
  page.drawText('Agreed: /sn1/', { x: 72, y: 200, size: 11, font });
  page.drawText('Reference:', { x: 72, y: 150, size: 11, font });
  return Buffer.from(await doc.save());
}

const PASSTHROUGH = { convert: async ({ bytes }: { bytes: Uint8Array }) => { await validatePdf(bytes); return bytes; }, extractText, close: () => Promise.resolve() } as never;

/** The example's draft: placeholder signer and cc named by role, a SignHere on the /sn1/ anchor. */
function exampleDraft(docBytes: Buffer, extraSignerTabs: Record<string, unknown> = {}) {
  return {
    envelopeIdStamping: 'true',
    emailSubject: 'Please sign',
    status: 'Created',
    documents: [{ documentBase64: Buffer.from(docBytes).toString('base64'), name: 'lorem', fileExtension: 'pdf', documentId: '2' }],
    recipients: {
      signers: [{
        name: 'Multi Bulk Recipient::signer', email: 'multiBulkRecipients-signer@docusign.com', roleName: 'signer', routingOrder: '1', status: 'created', deliveryMethod: 'email', recipientId: '1', recipientType: 'signer',
        tabs: docusign.Tabs.constructFromObject({ signHereTabs: [docusign.SignHere.constructFromObject({ anchorString: '/sn1/', anchorYOffset: '10', anchorUnits: 'pixels', anchorXOffset: '20' })], ...extraSignerTabs }),
      }],
      carbonCopies: [{ name: 'Multi Bulk Recipient::cc', email: 'multiBulkRecipients-cc@docusign.com', roleName: 'cc', routingOrder: '2', status: 'created', deliveryMethod: 'email', recipientId: '2', recipientType: 'cc' }],
    },
  };
}

const recipientsOf = (list: { signer: { name: string; email: string }; cc: { name: string; email: string } }) => [
  { name: list.signer.name, email: list.signer.email, roleName: 'signer' },
  { name: list.cc.name, email: list.cc.email, roleName: 'CC' },
];

async function settled(bulk: BulkApi, accountId: string, batchId: string): Promise<BatchStatus> {
  let status: BatchStatus | undefined;
  await pollUntil(async () => {
    status = await bulk.getBulkSendBatchStatus(accountId, batchId);
    return status.queued === '0';
  }, { timeoutMs: 20_000, intervalMs: 50 });
  return status!;
}

let h: SigningHarness;

// One server for the file: each subtest below uses it.
test('bulk send over the SDK (BulkEnvelopesApi)', async (t: TestContext) => {
  h = await startSigningEsign(t, { converter: PASSTHROUGH });
  await t.test('DocuSign\'s bulkSendEnvelope example runs as written, one sent envelope per list row with the row\'s recipients', exampleRuns);
  await t.test('lists: get, update, delete; tab values and custom fields per row; the test request checks without sending', listsAndTest);
  await t.test('attacks: another account\'s list, draft and batch; a list over 1,000 copies; a bad address refused with its row; a sent envelope as draft', attacks);
});

async function exampleRuns() {
  const { bulk, envelopes } = apis(h.origin, h.token);
  const acc = h.accountId;
  const args = {
    list1: { signer: { name: 'Ada Signer', email: 'ada@example.com' }, cc: { name: 'Carl Copy', email: 'carl@example.com' } },
    list2: { signer: { name: 'Bea Signer', email: 'bea@example.com' }, cc: { name: 'Cleo Copy', email: 'cleo@example.com' } },
  };
  const bulkList = await bulk.createBulkSendList(acc, { bulkSendingList: { name: 'sample.csv', bulkCopies: [{ recipients: recipientsOf(args.list1) }, { recipients: recipientsOf(args.list2) }] } });
  const envelope = await envelopes.createEnvelope(acc, { envelopeDefinition: exampleDraft(await anchoredPdf()) });
  await envelopes.createCustomFields(acc, envelope.envelopeId, { customFields: { textCustomFields: [{ name: 'mailingListId', required: 'false', show: 'false', value: bulkList.listId }] } });
  const bulkResult = await bulk.createBulkSendRequest(acc, bulkList.listId, { bulkSendRequest: { envelopeOrTemplateId: envelope.envelopeId } });
  const results = await bulk.getBulkSendBatchStatus(acc, bulkResult.batchId);
  // The example's last step: the batch as queued, its list and draft named.
  assert.equal(results.batchId, bulkResult.batchId);
  assert.equal(results.batchSize, '2');
  assert.equal(results.mailingListId, bulkList.listId);
  assert.equal(results.envelopeIdOrTemplateId, envelope.envelopeId);

  const done = await settled(bulk, acc, bulkResult.batchId);
  assert.deepEqual([done.sent, done.failed], ['2', '0']);
  const made = await bulk.getBulkSendBatchEnvelopes(acc, bulkResult.batchId, { include: 'recipients,custom_fields' });
  assert.equal(made.totalSetSize, '2');
  assert.deepEqual(made.envelopes.map((e) => [e.status, e.emailSubject, e.recipients?.signers[0]?.email, e.recipients?.signers[0]?.name, e.recipients?.carbonCopies[0]?.email]), [
    ['sent', 'Please sign', 'ada@example.com', 'Ada Signer', 'carl@example.com'],
    ['sent', 'Please sign', 'bea@example.com', 'Bea Signer', 'cleo@example.com'],
  ]);
  assert.equal(made.envelopes[0]?.customFields?.textCustomFields[0]?.value, bulkList.listId, 'the draft\'s custom fields go with each copy');
  // The draft stays a draft; the list is still there to send again.
  assert.equal((await envelopes.getEnvelope(acc, envelope.envelopeId)).status, 'created');
  assert.deepEqual((await bulk.getBulkSendLists(acc)).bulkListSummaries.map((l) => [l.bulkSendListId, l.name]), [[bulkList.listId, 'sample.csv']]);
  const batches = await bulk.getBulkSendBatches(acc);
  assert.deepEqual(batches.bulkBatchSummaries.map((b) => [b.batchId, b.sent]), [[bulkResult.batchId, '2']]);
}

async function listsAndTest() {
  const { bulk, envelopes } = apis(h.origin, h.token);
  const acc = h.accountId;
  const draft = exampleDraft(await anchoredPdf(), { textTabs: [{ tabLabel: 'Reference', anchorString: 'Reference:', anchorXOffset: '80', anchorUnits: 'pixels', value: 'REF-?' }] });
  const { envelopeId } = await envelopes.createEnvelope(acc, { envelopeDefinition: draft });
  await envelopes.createCustomFields(acc, envelopeId, { customFields: { textCustomFields: [{ name: 'Region', value: 'none' }] } });
  const row = (n: number) => ({ recipients: [{ roleName: 'signer', name: `Signer ${n}`, email: `s${n}@example.com`, tabs: [{ tabLabel: 'Reference', initialValue: `REF-${n}` }] }], customFields: [{ name: 'Region', value: `R${n}` }], emailSubject: `Contract ${n}` });
  const list = await bulk.createBulkSendList(acc, { bulkSendingList: { name: 'first', bulkCopies: [row(1)] } });
  assert.equal((await bulk.getBulkSendList(acc, list.listId)).bulkCopies.length, 1);
  const renamed = await bulk.updateBulkSendList(acc, list.listId, { bulkSendingList: { name: 'customers', bulkCopies: [row(1), row(2), row(3)] } });
  assert.equal(renamed.name, 'customers');
  assert.deepEqual((await bulk.getBulkSendList(acc, list.listId)).bulkCopies.map((c) => c.recipients[0]?.email), ['s1@example.com', 's2@example.com', 's3@example.com']);

  // The test request: fine as it is; a row naming a role or tab the draft lacks is named, nothing sent.
  assert.deepEqual({ ...(await bulk.createBulkSendTestRequest(acc, list.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } })) }, { canBeSent: true, validationErrors: [], validationErrorDetails: [] });
  const bad = await bulk.createBulkSendList(acc, { bulkSendingList: { name: 'bad', bulkCopies: [row(1), { recipients: [{ roleName: 'witness', name: 'W', email: 'w@example.com' }] }, { recipients: [{ roleName: 'signer', tabs: [{ tabLabel: 'Missing', initialValue: 'x' }] }] }] } });
  const test1 = await bulk.createBulkSendTestRequest(acc, bad.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } });
  assert.equal(test1.canBeSent, false);
  assert.deepEqual(test1.validationErrorDetails, ['row 2: roleName "witness" names no recipient of the envelope.', 'row 3: roleName "signer" has no tab labelled "Missing".']);
  assert.deepEqual(await sdkFailure(bulk.createBulkSendRequest(acc, bad.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } })), [400, 'BULK_SEND_ENVELOPE_NOT_SENDABLE']);
  assert.equal((await bulk.getBulkSendBatches(acc)).totalSetSize, '1', 'a refused request queues nothing');

  const sent = await bulk.createBulkSendRequest(acc, list.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId, batchName: 'November' } });
  assert.deepEqual([(await settled(bulk, acc, sent.batchId)).sent], ['3']);
  const made = await bulk.getBulkSendBatchEnvelopes(acc, sent.batchId, { include: 'recipients,tabs,custom_fields', startPosition: '1', count: '2' });
  assert.equal(made.totalSetSize, '3');
  assert.deepEqual(made.envelopes.map((e) => [e.emailSubject, e.recipients?.signers[0]?.email, e.recipients?.signers[0]?.tabs?.textTabs?.[0]?.value, e.customFields?.textCustomFields.find((f) => f.name === 'Region')?.value]), [
    ['Contract 2', 's2@example.com', 'REF-2', 'R2'],
    ['Contract 3', 's3@example.com', 'REF-3', 'R3'],
  ]);

  await bulk.deleteBulkSendList(acc, list.listId);
  assert.deepEqual(await sdkFailure(bulk.getBulkSendList(acc, list.listId)), [404, 'BULK_SEND_LIST_NOT_FOUND']);
  // What is not done here is refused by name, never answered as done.
  assert.deepEqual(await sdkFailure(bulk.updateBulkSendBatchAction(acc, sent.batchId, 'void', { bulkSendBatchActionRequest: { action: 'void' } })), [400, 'INVALID_REQUEST_PARAMETER']);
  assert.deepEqual(await sdkFailure(bulk.getBulkSendBatches(acc, { status: 'failed' })), [400, 'INVALID_REQUEST_PARAMETER']);
}

async function attacks() {
  const { bulk, envelopes } = apis(h.origin, h.token);
  const acc = h.accountId;
  const { envelopeId } = await envelopes.createEnvelope(acc, { envelopeDefinition: exampleDraft(await anchoredPdf()) });
  const list = await bulk.createBulkSendList(acc, { bulkSendingList: { name: 'mine', bulkCopies: [{ recipients: [{ roleName: 'signer', name: 'A', email: 'a@example.com' }] }] } });
  const batch = await bulk.createBulkSendRequest(acc, list.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } });
  await settled(bulk, acc, batch.batchId);

  const other = await secondAccount(h);
  const theirs = apis(h.origin, other.token).bulk;
  const theirList = await theirs.createBulkSendList(other.accountId, { bulkSendingList: { name: 'theirs', bulkCopies: [{ recipients: [{ roleName: 'signer', name: 'Eve', email: 'eve@example.com' }] }] } });
  for (const call of [
    () => theirs.getBulkSendList(other.accountId, list.listId),
    () => theirs.updateBulkSendList(other.accountId, list.listId, { bulkSendingList: { name: 'stolen', bulkCopies: [{ recipients: [{ roleName: 'signer', email: 'eve@example.com' }] }] } }),
    () => theirs.deleteBulkSendList(other.accountId, list.listId),
    () => theirs.createBulkSendRequest(other.accountId, list.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } }),
  ]) assert.deepEqual(await sdkFailure(call()), [404, 'BULK_SEND_LIST_NOT_FOUND']);
  // Their own list over this account's draft: the draft is not theirs to send.
  assert.deepEqual(await sdkFailure(theirs.createBulkSendRequest(other.accountId, theirList.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(theirs.createBulkSendTestRequest(other.accountId, theirList.listId, { bulkSendRequest: { envelopeOrTemplateId: envelopeId } })), [400, 'ENVELOPE_DOES_NOT_EXIST']);
  assert.deepEqual(await sdkFailure(theirs.getBulkSendBatchStatus(other.accountId, batch.batchId)), [404, 'BULK_SEND_BATCH_NOT_FOUND']);
  assert.deepEqual(await sdkFailure(theirs.getBulkSendBatchEnvelopes(other.accountId, batch.batchId)), [404, 'BULK_SEND_BATCH_NOT_FOUND']);
  assert.deepEqual((await theirs.getBulkSendLists(other.accountId)).bulkListSummaries.map((l) => l.name), ['theirs']);
  // The URL's account must be the token's: the API guard refuses another account's id outright.
  assert.deepEqual((await sdkFailure(theirs.getBulkSendList(acc, list.listId)))[0], 400);
  assert.equal((await bulk.getBulkSendList(acc, list.listId)).name, 'mine');

  // DocuSign's limit: 1,000 copies a list.
  const copy = { recipients: [{ roleName: 'signer', name: 'N', email: 'n@example.com' }] };
  assert.deepEqual(await sdkFailure(bulk.createBulkSendList(acc, { bulkSendingList: { name: 'big', bulkCopies: Array.from({ length: 1001 }, () => copy) } })), [400, 'BULK_SEND_MAX_COPIES_EXCEEDED']);
  assert.deepEqual(await sdkFailure(bulk.updateBulkSendList(acc, list.listId, { bulkSendingList: { name: 'big', bulkCopies: Array.from({ length: 1001 }, () => copy) } })), [400, 'BULK_SEND_MAX_COPIES_EXCEEDED']);
  // A bad address: refused with the row that holds it; nothing stored.
  try {
    await bulk.createBulkSendList(acc, { bulkSendingList: { name: 'typo', bulkCopies: [copy, copy, { recipients: [{ roleName: 'signer', name: 'T', email: 'not-an-address' }] }] } });
    assert.fail('a bad address must be refused');
  } catch (err) {
    const r = (err as { response: { status: number; data: { errorCode: string; message: string } } }).response;
    assert.equal(r.data.errorCode, 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT');
    assert.match(r.data.message, /bulkCopies row 3, roleName signer: "not-an-address" is not an e-mail address/);
  }
  assert.deepEqual((await bulk.getBulkSendLists(acc)).bulkListSummaries.filter((l) => l.name === 'typo'), []);
  // A copy that asks for what is not done here is refused by name.
  assert.deepEqual(await sdkFailure(bulk.createBulkSendList(acc, { bulkSendingList: { name: 'auth', bulkCopies: [{ recipients: [{ roleName: 'signer', email: 'a@example.com', accessCode: '1234' }] }] } })), [400, 'INVALID_REQUEST_BODY']);
  // A draft already sent is no draft to copy.
  const made = await bulk.getBulkSendBatchEnvelopes(acc, batch.batchId);
  assert.deepEqual(await sdkFailure(bulk.createBulkSendRequest(acc, list.listId, { bulkSendRequest: { envelopeOrTemplateId: made.envelopes[0]?.envelopeId } })), [400, 'BULK_SEND_ENVELOPE_NOT_SENDABLE']);
}
