import type { Db } from './database.ts';

/** Login sessions, keyed by the SHA-256 of the cookie value (a stolen table opens no session). */
export class SessionsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async create(idHash: string, userId: string, now: Date, expiresAt: string): Promise<void> {
    await this.#db.kysely.insertInto('sessions').values({ id_hash: idHash, user_id: userId, created_at: now.toISOString(), expires_at: expiresAt }).execute();
  }

  /** The session's user when the session exists and has not expired at `now`. */
  async userOf(idHash: string, now: Date): Promise<string | undefined> {
    const row = await this.#db.kysely.selectFrom('sessions').select('user_id')
      .where('id_hash', '=', idHash).where('expires_at', '>', now.toISOString()).executeTakeFirst();
    return row?.user_id;
  }

  async delete(idHash: string): Promise<void> {
    await this.#db.kysely.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
  }

  /** Deletes expired sessions; returns how many. */
  async purgeExpired(now: Date): Promise<number> {
    const res = await this.#db.kysely.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
