import { afterAttempt, LOGIN_THROTTLE, type LoginFailures } from '../domain/login-throttle.ts';
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
   * Counts one attempt before its password is verified: read-modify-write in one transaction
   * (BEGIN IMMEDIATE on SQLite, the row locked FOR UPDATE on PostgreSQL), so concurrent attempts
   * all count and those beyond the limit are refused without hashing.
   */
  async recordAttempt(email: string, now: Date): Promise<{ allowed: boolean; state: LoginFailures | undefined }> {
    return this.#db.transaction(async (trx) => {
      // Make sure the row exists first, so that FOR UPDATE has a row to lock even for the first
      // failures of an address arriving together.
      await trx.insertInto('login_failures').values({ email, failures: 0, first_failed_at: now.toISOString(), locked_until: null })
        .onConflict((oc) => oc.column('email').doNothing()).execute();
      const row = await trx.selectFrom('login_failures').selectAll().where('email', '=', email)
        .$if(this.#db.engine === 'postgres', (q) => q.forUpdate()).executeTakeFirstOrThrow();
      const current = Number(row.failures) === 0 ? undefined : { failures: Number(row.failures), firstFailedAt: row.first_failed_at, lockedUntil: row.locked_until };
      const { allowed, next } = afterAttempt(current, now);
      if (allowed && next) {
        await trx.updateTable('login_failures')
          .set({ failures: next.failures, first_failed_at: next.firstFailedAt, locked_until: next.lockedUntil })
          .where('email', '=', email).execute();
      }
      return { allowed, state: next };
    });
  }

  async clear(email: string): Promise<void> {
    await this.#db.kysely.deleteFrom('login_failures').where('email', '=', email).execute();
  }

  /** Deletes rows that no longer count: window over and no lock in force. */
  async purgeExpired(now: Date): Promise<number> {
    const windowStart = new Date(now.getTime() - LOGIN_THROTTLE.windowSeconds * 1000).toISOString();
    const res = await this.#db.kysely.deleteFrom('login_failures')
      .where('first_failed_at', '<=', windowStart)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now.toISOString())]))
      .executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
