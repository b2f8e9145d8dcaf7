import { afterFailure, type LoginFailures } from '../domain/login-throttle.ts';
import type { Db } from './database.ts';

/** Failed logins per e-mail address (the login throttle's memory, shared by every instance). */
export class LoginFailuresRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async find(email: string): Promise<LoginFailures | undefined> {
    const row = await this.#db.kysely.selectFrom('login_failures').selectAll().where('email', '=', email).executeTakeFirst();
    return row && { failures: Number(row.failures), firstFailedAt: row.first_failed_at, lockedUntil: row.locked_until };
  }

  /**
   * Counts one failure: read-modify-write in one transaction (BEGIN IMMEDIATE on SQLite, the
   * row locked FOR UPDATE on PostgreSQL), so concurrent failures all count.
   */
  async recordFailure(email: string, now: Date): Promise<LoginFailures> {
    return this.#db.transaction(async (trx) => {
      const row = await trx.selectFrom('login_failures').selectAll().where('email', '=', email).$if(this.#db.engine === 'postgres', (q) => q.forUpdate()).executeTakeFirst();
      const next = afterFailure(row && { failures: Number(row.failures), firstFailedAt: row.first_failed_at, lockedUntil: row.locked_until }, now);
      const values = { failures: next.failures, first_failed_at: next.firstFailedAt, locked_until: next.lockedUntil };
      if (row) await trx.updateTable('login_failures').set(values).where('email', '=', email).execute();
      else await trx.insertInto('login_failures').values({ email, ...values }).onConflict((oc) => oc.column('email').doUpdateSet(values)).execute();
      return next;
    });
  }

  async clear(email: string): Promise<void> {
    await this.#db.kysely.deleteFrom('login_failures').where('email', '=', email).execute();
  }
}
