// The send allowance is counted in the database, in the sender's own transaction: every instance
// sharing the database sees one count, and concurrent sends of one account cannot both take the
// last recipients (PostgreSQL queues them on the hour's row; SQLite has one writer).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { EsignError } from '../../src/errors.ts';
import { spendSendAllowance } from '../../src/store/send-allowance.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';
import type { Db } from '../../src/store/index.ts';

const refused = (err: unknown) => err instanceof EsignError && err.code === 'ENVELOPE_ALLOWANCE_EXCEEDED';
const at = (iso: string) => new Date(iso);

async function spent(db: Db, accountId: string): Promise<number> {
  const rows = await db.kysely.selectFrom('send_allowance_spend').select('recipients').where('account_id', '=', accountId).execute();
  return rows.reduce((sum, r) => sum + Number(r.recipients), 0);
}

describe('send allowance', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: spends up to the allowance in 24 hours, per account; a refusal leaves nothing spent`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const spend = (accountId: string, recipients: number, now: Date) => db.transaction((trx) => spendSendAllowance(trx, { accountId, recipients, now, allowance: 10 }));
      await spend('a', 6, at('2026-01-01T10:15:00.000Z'));
      await spend('a', 4, at('2026-01-01T11:59:00.000Z'));
      await assert.rejects(spend('a', 1, at('2026-01-01T12:00:00.000Z')), (err: unknown) => refused(err) && /reach 10 recipients by e-mail in 24 hours and has reached 10; this change would reach 1 more/.test((err as Error).message));
      assert.equal(await spent(db, 'a'), 10, 'the refused spend rolled back with its transaction');
      // Another account has its own allowance.
      await spend('b', 10, at('2026-01-01T12:00:00.000Z'));
      // The 10:00 hour leaves the window at 10:00 the next day: its 6 recipients count no more (and its row goes).
      await assert.rejects(spend('a', 1, at('2026-01-02T09:59:59.000Z')), refused);
      await spend('a', 6, at('2026-01-02T10:00:00.000Z'));
      assert.equal(await spent(db, 'a'), 10);
      await assert.rejects(spend('a', 1, at('2026-01-02T10:30:00.000Z')), refused);
      // A spend of nothing never refuses.
      await spend('a', 0, at('2026-01-02T10:30:00.000Z'));
    });

    test(`${engine.name}: concurrent sends of one account never take more than the allowance`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const now = at('2026-01-01T10:00:00.000Z');
      const outcomes = await Promise.allSettled(Array.from({ length: 12 }, () => db.transaction((trx) => spendSendAllowance(trx, { accountId: 'a', recipients: 1, now, allowance: 5 }))));
      assert.equal(outcomes.filter((o) => o.status === 'fulfilled').length, 5);
      assert.ok(outcomes.filter((o) => o.status === 'rejected').every((o) => refused(o.reason)));
      assert.equal(await spent(db, 'a'), 5);
    });
  }
});
