import { sql, type Kysely } from 'kysely';
import { EsignError } from '../errors.ts';
import type { Migration } from './migrations.ts';
import type { Database } from './schema.ts';

/**
 * What an account's sends reached by e-mail, per clock hour: `recipients` summed over the
 * account's sends, resends and corrections that began in the hour starting at `hour_start`
 * (ISO text, as every timestamp here).
 */
export type SendAllowanceRow = { account_id: string; hour_start: string; recipients: number };
export type SendAllowanceTables = { send_allowance_spend: SendAllowanceRow };

export const SEND_ALLOWANCE_MIGRATION: Migration = {
  version: 210,
  name: 'an account spends its send allowance hour by hour',
  async up(db) {
    await db.schema.createTable('send_allowance_spend')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('hour_start', 'text', (c) => c.notNull())
      .addColumn('recipients', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('send_allowance_spend_pk', ['account_id', 'hour_start'])
      .execute();
  },
};

const HOUR_MS = 3_600_000;
const WINDOW_HOURS = 24;

/** The clock hour `now` falls in, and the first hour of the 24 that count at `now`. */
function windowAt(now: Date): { hourStart: string; since: string } {
  const hour = Math.floor(now.getTime() / HOUR_MS) * HOUR_MS;
  return { hourStart: new Date(hour).toISOString(), since: new Date(hour - (WINDOW_HOURS - 1) * HOUR_MS).toISOString() };
}

async function spentSince(k: Kysely<Database>, accountId: string, since: string): Promise<number> {
  const row = await k.selectFrom('send_allowance_spend').select(sql<number | string>`coalesce(sum(recipients), 0)`.as('spent'))
    .where('account_id', '=', accountId).where('hour_start', '>=', since).executeTakeFirst();
  return Number(row?.spent ?? 0);
}

/**
 * How many more recipients the account may reach by e-mail at `now` (0 when none): read only,
 * for a check ahead of the sends themselves (a bulk batch is refused at submit when it cannot
 * go out); each send still spends in its own transaction (spendSendAllowance).
 */
export async function sendAllowanceLeft(k: Kysely<Database>, input: { accountId: string; now: Date; allowance: number }): Promise<number> {
  return Math.max(0, input.allowance - (await spentSince(k, input.accountId, windowAt(input.now).since)));
}

/**
 * Spends `recipients` of the account's send allowance inside the caller's transaction, or
 * refuses (ENVELOPE_ALLOWANCE_EXCEEDED) and the transaction rolls back with the send: at most
 * `allowance` recipients in the last 24 clock hours (this one included). The spend is written
 * before the sum is read, so concurrent sends of one account queue on the hour's row
 * (PostgreSQL's row lock; SQLite's one writer) and each reads what the others committed.
 * Counted in the database, the allowance holds across every instance sharing it.
 */
export async function spendSendAllowance(trx: Kysely<Database>, input: { accountId: string; recipients: number; now: Date; allowance: number }): Promise<void> {
  if (input.recipients <= 0) return;
  const { hourStart, since } = windowAt(input.now);
  await trx.insertInto('send_allowance_spend').values({ account_id: input.accountId, hour_start: hourStart, recipients: input.recipients })
    .onConflict((oc) => oc.columns(['account_id', 'hour_start']).doUpdateSet({ recipients: sql<number>`send_allowance_spend.recipients + ${input.recipients}` }))
    .execute();
  // Hours that left the window count no more: they go, so an account keeps at most 24 rows.
  await trx.deleteFrom('send_allowance_spend').where('account_id', '=', input.accountId).where('hour_start', '<', since).execute();
  const spent = await spentSince(trx, input.accountId, since);
  if (spent > input.allowance) {
    const before = spent - input.recipients;
    throw new EsignError('ENVELOPE_ALLOWANCE_EXCEEDED', `This account may reach ${input.allowance} recipients by e-mail in 24 hours and has reached ${before}; this change would reach ${input.recipients} more. Nothing was sent; try again later.`);
  }
}
