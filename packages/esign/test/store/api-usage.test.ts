// The pooled API counts: each instance's sync adds its calls to the hour's row and reads every
// instance's total; hours gone by are dropped.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ApiUsageRepository } from '../../src/store/api-usage-repository.ts';
import { bothEngines, openMigrated } from '../support/envelope-db.ts';

describe('api usage', () => {
  for (const engine of bothEngines()) {
    test(`${engine.name}: instances add to one count per account and hour; older hours go`, async (t) => {
      const db = await openMigrated(t, await engine.location(t));
      const usage = new ApiUsageRepository(db);
      const ten = new Date('2026-01-01T10:00:00.000Z');
      assert.deepEqual(await usage.add(ten, new Map([['a', 6], ['b', 1]])), new Map([['a', 6], ['b', 1]]));
      assert.deepEqual(await usage.add(ten, new Map([['a', 3]])), new Map([['a', 9]]));
      const eleven = new Date('2026-01-01T11:00:00.000Z');
      assert.deepEqual(await usage.add(eleven, new Map([['a', 2]])), new Map([['a', 2]]));
      const rows = await db.kysely.selectFrom('api_usage').selectAll().execute();
      assert.deepEqual(rows.map((r) => [r.account_id, r.hour_start, Number(r.calls)]), [['a', eleven.toISOString(), 2]]);
    });
  }
});
