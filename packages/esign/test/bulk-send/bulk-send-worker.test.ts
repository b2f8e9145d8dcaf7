import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test, type TestContext } from 'node:test';
import { BulkSendWorker } from '../../src/bulk-send/bulk-send-worker.ts';
import { createBulkList } from '../../src/domain/bulk-send/bulk-list-use-cases.ts';
import { requestBulkSend } from '../../src/domain/bulk-send/bulk-send-request.ts';
import { loadBulkSource, sendBulkCopy } from '../../src/domain/bulk-send/send-bulk-copy.ts';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { BulkSendRepository } from '../../src/store/bulk-send-repository.ts';
import { openDatabase, type Db } from '../../src/store/index.ts';
import { OutboxRepository } from '../../src/store/outbox-repository.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { envelopesRepository, storeEnvelopeDeps } from '../support/store-envelope-deps.ts';

const LEASE_MS = 60_000;

/** Two "instances" (separate handles on one SQLite file, as two esign processes have), a draft and a batch of `rows` rows. */
async function batchOn(t: TestContext, rows: number) {
  const location = freshSqlite(t);
  const first: Db = await openMigrated(t, location);
  const second: Db = openDatabase(location);
  t.after(() => second.close());
  const clock = new FakeClock(Date.parse('2026-11-20T09:00:00Z'));
  const account = await new AccountsRepository(first).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  const deps = (db: Db) => ({ bulk: new BulkSendRepository(db, 10_000), envelopes: storeEnvelopeDeps(envelopesRepository(db), clock) });
  const draft = await createEnvelope(deps(first).envelopes, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'created', emailSubject: 'Bulk',
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [{ type: 'signer', recipientId: '1', roleName: 'Signer', email: 'placeholder@example.com', name: 'Placeholder', routingOrder: 1, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 100 }]) }],
  } });
  const list = await createBulkList(deps(first), account.accountId, account.userId, { name: 'list', copies: Array.from({ length: rows }, (_, i) => ({ recipients: [{ roleName: 'signer', name: `Row ${i + 1}`, email: `row${i + 1}@example.com`, tabs: [] }], customFields: [] })) });
  const batch = await requestBulkSend(deps(first), { accountId: account.accountId, userId: account.userId, listId: list.listId, envelopeId: draft.envelopeId });
  const worker = (db: Db, workerId: string) => new BulkSendWorker({ bulk: new BulkSendRepository(db, 10_000), envelopes: deps(db).envelopes, workerId, leaseMs: LEASE_MS, batchSize: 4 });
  /** The envelope-sent mails in the outbox, by address: one per row when each row was made once. */
  const sentMails = async () => (await new OutboxRepository(first).list()).filter((m) => m.kind === 'envelope-sent').map((m) => m.recipient_email).sort();
  const envelopeCount = async () => Number((await first.kysely.selectFrom('envelopes').select((eb) => eb.fn.countAll<number>().as('n')).where('account_id', '=', account.accountId).executeTakeFirstOrThrow()).n);
  return { first, second, clock, deps, account, draft, batch, worker, sentMails, envelopeCount };
}

const emails = (n: number) => Array.from({ length: n }, (_, i) => `row${i + 1}@example.com`).sort();

test('a worker that claimed rows and died: its lease runs out, the other instance makes them; when the first comes back it finds them made and writes nothing', async (t) => {
  const { first, second, clock, deps, account, batch, worker, sentMails, envelopeCount } = await batchOn(t, 8);
  // Instance A claims 5 rows, then stops answering (a crash, a long pause).
  const claimedByA = await new BulkSendRepository(first, 10_000).claimRows({ workerId: 'A', now: clock.now(), leaseMs: LEASE_MS, limit: 5 });
  assert.deepEqual(claimedByA.map((r) => r.row), [1, 2, 3, 4, 5]);
  const b = worker(second, 'B');
  // B skips A's leased rows and makes the other three.
  assert.equal(await b.runOnce(), 3);
  assert.equal(await b.runOnce(), 0, 'nothing else is free while A\'s lease holds');
  assert.deepEqual(await sentMails(), ['row6@example.com', 'row7@example.com', 'row8@example.com']);
  // A's lease runs out: B takes A's rows.
  clock.advance(LEASE_MS / 1000 + 1);
  assert.equal(await b.runOnce(), 4);
  assert.equal(await b.runOnce(), 1);
  // A resumes where it stopped: each of its rows is found made; nothing new is written, and its late record changes nothing.
  const envelopesA = deps(first).envelopes;
  const source = await loadBulkSource(envelopesA, account.accountId, claimedByA[0]!.sourceEnvelopeId);
  for (const row of claimedByA) {
    const outcome = await sendBulkCopy(envelopesA, source, row);
    assert.equal(outcome.status, 'sent');
    await new BulkSendRepository(first, 10_000).finishRow(row.rowId, 'A', outcome, clock.now());
  }
  assert.equal(await envelopeCount(), 1 + 8, 'the draft and one envelope per row');
  assert.deepEqual(await sentMails(), emails(8));
  const status = await new BulkSendRepository(first, 10_000).findBatch(account.accountId, batch.batchId);
  assert.deepEqual([status?.queued, status?.sent, status?.failed], [0, 8, 0]);
  assert.equal(new Set(await new BulkSendRepository(first, 10_000).batchEnvelopeIds(account.accountId, batch.batchId)).size, 8);
});

test('a crash between a row\'s envelope and its record: the retry finds the envelope and records it; the row\'s mail was written once', async (t) => {
  const { first, second, clock, deps, account, worker, sentMails, envelopeCount } = await batchOn(t, 2);
  const [row1] = await new BulkSendRepository(first, 10_000).claimRows({ workerId: 'A', now: clock.now(), leaseMs: LEASE_MS, limit: 1 });
  assert.ok(row1);
  const envelopesA = deps(first).envelopes;
  // The envelope (and its mail) is written; the process dies before the row is recorded.
  assert.equal((await sendBulkCopy(envelopesA, await loadBulkSource(envelopesA, account.accountId, row1.sourceEnvelopeId), row1)).status, 'sent');
  clock.advance(LEASE_MS / 1000 + 1);
  assert.equal(await worker(second, 'B').runOnce(), 2);
  assert.equal(await envelopeCount(), 1 + 2);
  assert.deepEqual(await sentMails(), emails(2));
});

test('a row the draft no longer fits fails with why and writes nothing; the batch status names its row and addresses', async (t) => {
  const { first, second, account, batch, worker, envelopeCount } = await batchOn(t, 1);
  // The draft loses its roleName after the request was queued (its recipient was replaced).
  await first.kysely.updateTable('envelope_recipients').set({ role_name: 'Other' }).execute();
  assert.equal(await worker(second, 'B').runOnce(), 1);
  assert.equal(await envelopeCount(), 1, 'only the draft');
  const status = await new BulkSendRepository(first, 10_000).findBatch(account.accountId, batch.batchId);
  assert.deepEqual([status?.sent, status?.failed], [0, 1]);
  assert.deepEqual(status?.errors.map((e) => [e.row, e.message, e.recipientEmails]), [[1, 'row 1: roleName "signer" names no recipient of the envelope.', ['row1@example.com']]]);
});
