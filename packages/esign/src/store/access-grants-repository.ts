import type { Db } from './database.ts';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** Which check a grant stands for: a right access code, or a right one-time passcode. */
export type GrantMethod = 'access_code' | 'passcode';

/** The browser grants a right access code or passcode earns (store/access-code-tables.ts, store/passcode-tables.ts). */
export class AccessGrantsRepository {
  readonly #k: Kysely<Database>;
  constructor(db: Db) {
    this.#k = db.kysely;
  }

  async create(row: { tokenHash: string; envelopeId: string; recipientId: string; createdAt: Date; expiresAt: Date; method: GrantMethod }): Promise<void> {
    await this.#k.insertInto('signing_access_grants').values({ token_hash: row.tokenHash, envelope_id: row.envelopeId, recipient_id: row.recipientId, created_at: row.createdAt.toISOString(), expires_at: row.expiresAt.toISOString(), method: row.method }).execute();
  }

  /** Whether the grant `tokenHash` lets this browser past `method` for `recipientId` of `envelopeId` at `now`. */
  async grants(tokenHash: string, envelopeId: string, recipientId: string, now: Date, method: GrantMethod): Promise<boolean> {
    const row = await this.#k.selectFrom('signing_access_grants').select('expires_at').where('token_hash', '=', tokenHash).where('envelope_id', '=', envelopeId).where('recipient_id', '=', recipientId).where('method', '=', method).executeTakeFirst();
    return row !== undefined && row.expires_at > now.toISOString();
  }

  /** Drops expired grants; returns how many. */
  async purgeExpired(now: Date): Promise<number> {
    const res = await this.#k.deleteFrom('signing_access_grants').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
