import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import type { ClaimedBulkRow } from '../../src/domain/bulk-send/bulk-ports.ts';
import { AccountsRepository } from '../../src/store/accounts-repository.ts';
import { BulkSendRepository } from '../../src/store/bulk-send-repository.ts';
import type { Db } from '../../src/store/index.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import { FakeClock } from '../support/fake-clock.ts';

// The review's scenario: batch ids are random, so a victim's batch used to wait behind every
// batch of another account whose id sorted lower. Here the ids are chosen to sort against it.
const LEASE = { leaseMs: 60_000 };

async function account(db: Db, clock: FakeClock) {
  const a = await new AccountsRepository(db).createUserWithAccount({ email: `${randomUUID()}@example.com`, name: 'Ada', passwordHash: 'x', accountName: 'Co', now: clock.now() });
  assert.ok(a);
  return a;
}

/** A list of `rows` copies and one batch of it, submitted now, with the given id. */
async function submit(bulk: BulkSendRepository, clock: FakeClock, who: { accountId: string; userId: string }, batchId: string, rows: number) {
  const listId = randomUUID();
  const copies = Array.from({ length: rows }, (_, i) => ({ recipients: [{ roleName: 'signer', email: `${batchId}-${i + 1}@example.com`, tabs: [] }], customFields: [] }));
  await bulk.createList({ listId, accountId: who.accountId, name: batchId, createdByUserId: who.userId, createdAt: clock.now(), copyCount: rows }, copies);
  await bulk.createBatch({ batchId, accountId: who.accountId, name: batchId, listId, listName: batchId, sourceEnvelopeId: 'draft', senderUserId: who.userId, size: rows, submittedAt: clock.now() });
}

const names = (rows: ClaimedBulkRow[]) => rows.map((r) => `${r.batchId.slice(0, 1)}${r.row}`);

describe('bulk send queue shared by accounts', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: accounts take turns; within an account, batches in the order submitted`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const clock = new FakeClock(Date.parse('2026-11-20T09:00:00Z'));
      const bulk = new BulkSendRepository(db, 10_000);
      const attacker = await account(db, clock);
      const victim = await account(db, clock);
      // The attacker's first batch has the id that sorts second, its second batch the lowest.
      await submit(bulk, clock, attacker, 'b-first', 6);
      clock.advance(1);
      await submit(bulk, clock, attacker, 'a-second', 6);
      clock.advance(1);
      await submit(bulk, clock, victim, 'z-victim', 1);
      const claim = () => bulk.claimRows({ workerId: 'w1', now: clock.now(), limit: 4, ...LEASE });

      const first = await claim();
      assert.deepEqual(names(first), ['b1', 'z1', 'b2', 'b3'], 'the victim\'s row is in the first claim, right after the attacker\'s first');
      assert.deepEqual(names(await claim()), ['b4', 'b5', 'b6', 'a1']);
      assert.deepEqual(names(await claim()), ['a2', 'a3', 'a4', 'a5']);
      assert.deepEqual(names(await claim()), ['a6']);
      assert.deepEqual(await claim(), []);
    });

    test(`${engine.name}: an account submitting later is served from the next claim on, ahead of another's backlog`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const clock = new FakeClock(Date.parse('2026-11-20T09:00:00Z'));
      const bulk = new BulkSendRepository(db, 10_000);
      const [x, y, late] = [await account(db, clock), await account(db, clock), await account(db, clock)];
      await submit(bulk, clock, x, '1-x', 10);
      await submit(bulk, clock, y, '2-y', 10);
      const claim = (limit: number) => bulk.claimRows({ workerId: 'w1', now: clock.now(), limit, ...LEASE });
      assert.deepEqual(names(await claim(4)), ['11', '21', '12', '22']);
      clock.advance(1);
      await submit(bulk, clock, late, '3-late', 2);
      assert.deepEqual(names(await claim(3)), ['13', '23', '31']);
    });
  }
});
