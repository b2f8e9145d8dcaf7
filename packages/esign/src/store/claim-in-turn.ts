import { sql, type Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * Runs a shared queue's claim statement one claimant at a time across every instance. A claim
 * that serves accounts in turns ranks all due rows (a window function), and two claimants
 * ranking at once pick the same rows: with SKIP LOCKED the second would come away with a short
 * or empty batch, without it the second would wait and then find them taken. Queued one after
 * the other, each claim sees the previous one's rows as taken and fills its batch from the
 * rest. The wait is one short statement. SQLite needs nothing more: a write statement already
 * runs under the file's single write lock, across processes.
 */
export function claimInTurn<T>(db: Db, pgLockKey: number, claim: (k: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.engine !== 'postgres') return claim(db.kysely);
  return db.transaction(async (trx) => {
    // Released at commit. The claim's statement starts after the lock, so it sees every earlier claim.
    await sql`select pg_advisory_xact_lock(${pgLockKey})`.execute(trx);
    return claim(trx);
  });
}
