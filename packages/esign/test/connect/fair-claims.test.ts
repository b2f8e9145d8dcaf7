import assert from 'node:assert/strict';
import { describe, test, type TestContext } from 'node:test';
import { ConnectRepository } from '../../src/store/connect-repository.ts';
import type { DatabaseLocation, Db } from '../../src/store/database.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { queueDelivery } from './queue-delivery.ts';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

describe('Connect claims are fair by account', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: round robin across accounts with due deliveries, oldest first within each; a per-account cap`, (t) => roundRobin(t, engine.location));
  }
});

/** `count` due deliveries of one account, one a second, from `fromSecond`; their ids in order. */
async function queueMany(db: Db, accountId: string, count: number, fromSecond: number, url = (i: number) => `https://${accountId}.example/${i}`): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) ids.push(await queueDelivery(db, { accountId, url: url(i), createdAt: new Date(T0 + (fromSecond + i) * 1000) }));
  return ids;
}

async function roundRobin(t: TestContext, location: (t: TestContext) => Promise<DatabaseLocation>): Promise<void> {
  const where = await location(t);
  const db = await openMigrated(t, where);
  const connect = new ConnectRepository(db);
  const now = new Date(T0 + 3_600_000);
  // The hog queued 12 deliveries before the others queued theirs.
  const hog = await queueMany(db, 'hog', 12, 0);
  const quiet = await queueMany(db, 'quiet', 1, 100);
  const third = await queueMany(db, 'third', 3, 200);

  const first = await connect.claim({ workerId: 'w1', now, leaseMs: 60_000, limit: 5 });
  // Round 1 takes each account's oldest (oldest account first), round 2 the next of those with more.
  assert.deepEqual(new Set(first.map((d) => d.id)), new Set([hog[0], quiet[0], third[0], hog[1], third[1]]));
  // Handed over in the order the events happened, as before.
  assert.deepEqual(first.map((d) => d.id), [hog[0], hog[1], quiet[0], third[0], third[1]]);

  // A cap per account: the hog already holds 1 of its 2, so it gets one more; third gets its last.
  const capped = await connect.claim({ workerId: 'w1', now, leaseMs: 60_000, limit: 10, perAccount: { limit: 2, taken: new Map([['hog', 1]]) } });
  assert.deepEqual(capped.map((d) => d.id), [hog[2], third[2]]);
  // An account at its cap gets nothing, whatever is due.
  assert.deepEqual(await connect.claim({ workerId: 'w1', now, leaseMs: 60_000, limit: 10, perAccount: { limit: 2, taken: new Map([['hog', 2]]) } }), []);

  // Two workers on two connections at once: disjoint batches that together take every due one.
  const second = new ConnectRepository(await openMigrated(t, where));
  const late = await queueMany(db, 'late', 2, 300);
  const [a, b] = await Promise.all([connect.claim({ workerId: 'w2', now, leaseMs: 60_000, limit: 6 }), second.claim({ workerId: 'w3', now, leaseMs: 60_000, limit: 6 })]);
  const ids = [...a, ...b].map((d) => d.id);
  assert.equal(new Set(ids).size, ids.length, 'no delivery claimed twice');
  assert.deepEqual([...ids].sort(), [...hog.slice(3), ...late].sort());

  // Leases, retries and the listener exclusion hold as before: nothing due now, and a worker
  // serving a listener is not handed its next message.
  assert.deepEqual(await connect.claim({ workerId: 'w4', now, leaseMs: 60_000, limit: 10 }), []);
  const retry = await queueDelivery(db, { accountId: 'quiet', url: 'https://quiet.example/0', createdAt: new Date(T0 + 400_000), dueAt: new Date(now.getTime() + 1_000) });
  assert.deepEqual(await connect.claim({ workerId: 'w4', now, leaseMs: 60_000, limit: 10 }), [], 'not due yet');
  assert.deepEqual(await connect.claim({ workerId: 'w4', now: new Date(now.getTime() + 1_000), leaseMs: 60_000, limit: 10, exceptUrls: ['https://quiet.example/0'] }), []);
  assert.deepEqual((await connect.claim({ workerId: 'w4', now: new Date(now.getTime() + 1_000), leaseMs: 60_000, limit: 10 })).map((d) => d.id), [retry]);
}
