import { sql } from 'kysely';
import type { Db } from './database.ts';
import type { Migration } from './migrations.ts';

/** Every instance's API calls of an account in the clock hour starting at `hour_start` (restapi/api-rate-limit.ts). */
export type ApiUsageRow = { account_id: string; hour_start: string; calls: number };
export type ApiUsageTables = { api_usage: ApiUsageRow };

export const API_USAGE_MIGRATION: Migration = {
  version: 211,
  name: 'the instances pool their API calls per account and hour',
  async up(db) {
    await db.schema.createTable('api_usage')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('hour_start', 'text', (c) => c.notNull())
      .addColumn('calls', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('api_usage_pk', ['account_id', 'hour_start'])
      .execute();
  },
};

/** The shared hourly API counts over SQLite or PostgreSQL (restapi/api-rate-limit.ts's SharedApiUsage): one transaction per sync of an instance. */
export class ApiUsageRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  add(hourStart: Date, calls: ReadonlyMap<string, number>): Promise<Map<string, number>> {
    const hour = hourStart.toISOString();
    return this.#db.transaction(async (trx) => {
      for (const [accountId, n] of calls) {
        await trx.insertInto('api_usage').values({ account_id: accountId, hour_start: hour, calls: n })
          .onConflict((oc) => oc.columns(['account_id', 'hour_start']).doUpdateSet({ calls: sql<number>`api_usage.calls + ${n}` }))
          .execute();
      }
      // Past hours are never read again.
      await trx.deleteFrom('api_usage').where('hour_start', '<', hour).execute();
      const rows = await trx.selectFrom('api_usage').select(['account_id', 'calls']).where('hour_start', '=', hour).where('account_id', 'in', [...calls.keys()]).execute();
      return new Map(rows.map((r) => [r.account_id, Number(r.calls)]));
    });
  }
}
