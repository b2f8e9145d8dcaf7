// A bulk batch is checked against the account's send allowance at submit, counting the rows of
// the batches already queued (they spend it only when the worker sends them): two batches
// submitted one after the other cannot together pass it and then fail row by row.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { BulkSendWorker } from '../../src/bulk-send/bulk-send-worker.ts';
import { createBulkList } from '../../src/domain/bulk-send/bulk-list-use-cases.ts';
import { requestBulkSend, testBulkSend } from '../../src/domain/bulk-send/bulk-send-request.ts';
import { createEnvelope } from '../../src/domain/envelope/create-envelope.ts';
import { signHereTabs } from '../../src/domain/tabs/sign-here-tab.ts';
import { EsignError } from '../../src/errors.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { BulkSendRepository } from '../../src/store/bulk-send-repository.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';
import { envelopesRepository, storeEnvelopeDeps } from '../support/store-envelope-deps.ts';

test('bulk send: the rows already queued count against the send allowance at submit', async (t) => {
  const db = await openMigrated(t, freshSqlite(t));
  const clock = new FakeClock(Date.parse('2026-11-20T09:00:00Z'));
  const account = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Ada Co', now: clock.now() });
  assert.ok(account);
  const allowance = 5;
  const deps = { bulk: new BulkSendRepository(db, allowance), envelopes: storeEnvelopeDeps(envelopesRepository(db, undefined, allowance), clock) };
  const draft = await createEnvelope(deps.envelopes, { accountId: account.accountId, senderUserId: account.userId, draft: {
    status: 'created', emailSubject: 'Bulk',
    documents: [{ documentId: '1', name: 'A', fileExtension: 'pdf', bytes: new Uint8Array([1]) }],
    recipients: [{ type: 'signer', recipientId: '1', roleName: 'Signer', email: 'placeholder@example.com', name: 'Placeholder', routingOrder: 1, tabs: signHereTabs([{ documentId: '1', pageNumber: 1, xPosition: 100, yPosition: 100 }]) }],
  } });
  const list = (name: string, rows: number) => createBulkList(deps, account.accountId, account.userId, { name, copies: Array.from({ length: rows }, (_, i) => ({ recipients: [{ roleName: 'signer', name: `${name} ${i}`, email: `${name}-${i}@example.com`, tabs: [] }], customFields: [] })) });
  const submit = async (rows: number, name: string) => requestBulkSend(deps, { accountId: account.accountId, userId: account.userId, listId: (await list(name, rows)).listId, envelopeId: draft.envelopeId });

  // Three rows queued (no worker has run: nothing is spent yet).
  await submit(3, 'first');
  // Three more would make six with the queued three: refused whole, and the test request says so.
  const second = await list('second', 3);
  const tested = await testBulkSend(deps, account.accountId, second.listId, draft.envelopeId);
  assert.deepEqual(tested, { canBeSent: false, problems: ['The batch would reach 3 recipients by e-mail and the batches already queued 3 more; this account may reach 5 more in the next 24 hours (its send allowance).'] });
  await assert.rejects(
    requestBulkSend(deps, { accountId: account.accountId, userId: account.userId, listId: second.listId, envelopeId: draft.envelopeId }),
    (err: unknown) => err instanceof EsignError && err.code === 'ENVELOPE_ALLOWANCE_EXCEEDED' && /Nothing was queued/.test(err.message),
  );
  assert.equal(await deps.bulk.queuedCount(account.accountId), 3, 'the refused batch queued nothing');

  // The worker sends the first batch: its three are spent, no longer queued; two more fit, a third would not.
  const worker = new BulkSendWorker({ bulk: deps.bulk, envelopes: deps.envelopes, workerId: 'w', leaseMs: 60_000, batchSize: 10 });
  while ((await worker.runOnce()) > 0);
  assert.equal(await deps.bulk.queuedCount(account.accountId), 0);
  assert.equal((await testBulkSend(deps, account.accountId, (await list('third', 3)).listId, draft.envelopeId)).canBeSent, false);
  await submit(2, 'fourth');
});
