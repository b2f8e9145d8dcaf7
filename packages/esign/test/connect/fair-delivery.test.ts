import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { ConnectDeliveryWorker, type ConnectWorkerOptions } from '../../src/connect/connect-delivery-worker.ts';
import { buildPostToListener } from '../../src/connect/post-to-listener.ts';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import type { Db } from '../../src/store/database.ts';
import { freshSqlite, openMigrated } from '../support/envelope-db.ts';
import { startHoldingListener } from './holding-listener.ts';
import { queueDelivery } from './queue-delivery.ts';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');
const WAIT = { timeoutMs: 10_000, intervalMs: 5 };

/** The real worker over the real outbox (SQLite) and real POSTs to 127.0.0.1; stopped in teardown. */
function startWorker(t: TestContext, db: Db, options: Partial<ConnectWorkerOptions>): ConnectDeliveryWorker {
  const worker = new ConnectDeliveryWorker({
    queue: new ConnectRepository(db), workerId: 'w', hmacSecrets: () => Promise.resolve([]),
    post: buildPostToListener({ allowHttp: true, allowPrivate: true }),
    // Held requests end when the test releases them, never by timeout.
    timeoutMs: 600_000, pollIntervalMs: 5, ...options,
  });
  worker.start();
  t.after(() => worker.stop());
  return worker;
}

/** Deliveries claimed now (leased, not finished), by account. */
async function claimedNow(db: Db): Promise<Record<string, number>> {
  const rows = await db.kysely.selectFrom('connect_deliveries').select(['account_id']).where('status', '=', 'pending').where('claimed_by', 'is not', null).execute();
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.account_id] = (counts[row.account_id] ?? 0) + 1;
  return counts;
}

async function delivered(db: Db): Promise<number> {
  return (await db.kysely.selectFrom('connect_deliveries').select('id').where('status', '=', 'delivered').execute()).length;
}

test('fair delivery: a tenant whose 12 listeners hold every request gets its share of the slots; another tenant\'s message goes out meanwhile', async (t) => {
  const db = await openMigrated(t, freshSqlite(t));
  const listener = await startHoldingListener(t, (path) => path.startsWith('/hog/'));
  // The hog's 12 configurations each got a message before the quiet tenant's one.
  for (let i = 0; i < 12; i++) await queueDelivery(db, { accountId: 'hog', url: `${listener.url}/hog/${i}`, createdAt: new Date(T0 + i * 1000) });
  await queueDelivery(db, { accountId: 'quiet', url: `${listener.url}/quiet`, createdAt: new Date(T0 + 60_000) });
  // 8 slots: a quarter, 2, per account.
  startWorker(t, db, { maxListeners: 8, batchSize: 10 });

  await pollUntil(async () => (await delivered(db)) === 1 || undefined, { ...WAIT, what: 'the quiet tenant\'s delivery made while the hog\'s listeners hold theirs' });
  assert.deepEqual(listener.arrived.filter((p) => p === '/quiet'), ['/quiet']);
  await pollUntil(() => listener.open() === 2 || undefined, { ...WAIT, what: 'the hog\'s two requests open' });
  // The hog holds its share and no more: two claimed, two open, the other ten left in the outbox.
  assert.deepEqual(await claimedNow(db), { hog: 2 });
  assert.equal(listener.maxHeld(), 2);

  listener.releaseAll();
  await pollUntil(async () => (await delivered(db)) === 13 || undefined, { ...WAIT, what: 'every delivery made once released' });
  // Each listener got its message once; never more than the hog's share open at once.
  assert.deepEqual(listener.arrived.filter((p) => p.startsWith('/hog/')).sort(), Array.from({ length: 12 }, (_, i) => `/hog/${i}`).sort());
  assert.equal(listener.maxHeld(), 2, 'never more than the hog\'s share open at once');
});

test('fair delivery: the listener limit is a true bound; a batch never starts more listeners than there are free slots', async (t) => {
  const db = await openMigrated(t, freshSqlite(t));
  const listener = await startHoldingListener(t, () => true);
  for (let i = 0; i < 12; i++) await queueDelivery(db, { accountId: 'only', url: `${listener.url}/l/${i}`, createdAt: new Date(T0 + i * 1000) });
  // One account allowed every slot: only the global limit applies.
  const worker = startWorker(t, db, { maxListeners: 4, maxListenersPerAccount: 4, batchSize: 10 });

  await pollUntil(() => listener.open() >= 4 || undefined, { ...WAIT, what: 'four requests open' });
  // Claims come before POSTs: four claimed means no fifth listener can start.
  assert.deepEqual(await claimedNow(db), { only: 4 });
  // A pass with every slot taken claims nothing (and does not wait for the held listeners).
  assert.deepEqual(await worker.runOnce(), { claimed: 0, delivered: 0, retried: 0, failed: 0 });
  assert.deepEqual(await claimedNow(db), { only: 4 });

  listener.releaseAll();
  await pollUntil(async () => (await delivered(db)) === 12 || undefined, { ...WAIT, what: 'all twelve delivered' });
  assert.equal(listener.maxOpen(), 4);
  assert.equal(listener.arrived.length, 12);
});
