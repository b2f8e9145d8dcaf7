import type { Db } from './database.ts';
import type { AuthCodeRow, TokenRow } from './schema.ts';

/** Consents, authorization codes and tokens (all secrets stored as hashes). */
export class OAuthRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async consentedScopes(userId: string, appId: string): Promise<string[] | undefined> {
    const row = await this.#db.kysely.selectFrom('consents').select('scopes')
      .where('user_id', '=', userId).where('app_id', '=', appId).executeTakeFirst();
    return row ? row.scopes.split(' ').filter((s) => s !== '') : undefined;
  }

  /** Records consent for `scopes`, merged with what was granted before. */
  async grantConsent(userId: string, appId: string, scopes: readonly string[], now: Date): Promise<void> {
    await this.#db.transaction(async (trx) => {
      const row = await trx.selectFrom('consents').select('scopes').where('user_id', '=', userId).where('app_id', '=', appId).executeTakeFirst();
      const merged = [...new Set([...(row?.scopes.split(' ').filter((s) => s !== '') ?? []), ...scopes])].sort().join(' ');
      if (row) await trx.updateTable('consents').set({ scopes: merged }).where('user_id', '=', userId).where('app_id', '=', appId).execute();
      else await trx.insertInto('consents').values({ user_id: userId, app_id: appId, scopes: merged, created_at: now.toISOString() }).execute();
    });
  }

  async insertCode(row: AuthCodeRow): Promise<void> {
    await this.#db.kysely.insertInto('auth_codes').values(row).execute();
  }

  findCode(codeHash: string): Promise<AuthCodeRow | undefined> {
    return this.#db.kysely.selectFrom('auth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  }

  /**
   * Marks the code used, atomically: of two concurrent redemptions exactly one gets true; the
   * other must treat the code as replayed.
   */
  async consumeCode(codeHash: string, now: Date): Promise<boolean> {
    const res = await this.#db.kysely.updateTable('auth_codes').set({ consumed_at: now.toISOString() })
      .where('code_hash', '=', codeHash).where('consumed_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows) === 1;
  }

  /** Stores issued tokens together (access + refresh of one response). */
  async insertTokens(rows: readonly TokenRow[]): Promise<void> {
    await this.#db.transaction(async (trx) => {
      for (const row of rows) await trx.insertInto('tokens').values(row).execute();
    });
  }

  /** A token that is live at `now` (not revoked, not expired). */
  liveToken(tokenHash: string, kind: TokenRow['kind'], now: Date): Promise<TokenRow | undefined> {
    return this.#db.kysely.selectFrom('tokens').selectAll()
      .where('token_hash', '=', tokenHash).where('kind', '=', kind)
      .where('revoked_at', 'is', null).where('expires_at', '>', now.toISOString())
      .executeTakeFirst();
  }

  findToken(tokenHash: string): Promise<TokenRow | undefined> {
    return this.#db.kysely.selectFrom('tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  }

  /**
   * Rotates a refresh token: revokes `oldHash` and stores the new pair, in one transaction;
   * false when the old token was already revoked by a concurrent rotation.
   */
  async rotateRefresh(oldHash: string, rows: readonly TokenRow[], now: Date): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      const res = await trx.updateTable('tokens').set({ revoked_at: now.toISOString() })
        .where('token_hash', '=', oldHash).where('revoked_at', 'is', null).executeTakeFirst();
      if (Number(res.numUpdatedRows) !== 1) return false;
      for (const row of rows) await trx.insertInto('tokens').values(row).execute();
      return true;
    });
  }

  async revokeToken(tokenHash: string, now: Date): Promise<void> {
    await this.#db.kysely.updateTable('tokens').set({ revoked_at: now.toISOString() })
      .where('token_hash', '=', tokenHash).where('revoked_at', 'is', null).execute();
  }

  /** Revokes every token issued under a grant (one code and the refreshes that followed). */
  async revokeGrant(grantId: string, now: Date): Promise<number> {
    const res = await this.#db.kysely.updateTable('tokens').set({ revoked_at: now.toISOString() })
      .where('grant_id', '=', grantId).where('revoked_at', 'is', null).executeTakeFirst();
    return Number(res.numUpdatedRows);
  }

  /**
   * Records a JWT assertion's id as used until `expiresAt`; false when the app already used it
   * (a replay). The primary key decides, so two instances racing on one assertion agree.
   */
  async useAssertionId(appId: string, jti: string, expiresAt: Date, now: Date): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      // Ids of expired assertions can never be replayed (exp is checked first): forget them.
      await trx.deleteFrom('jwt_assertions').where('expires_at', '<=', now.toISOString()).execute();
      const res = await trx.insertInto('jwt_assertions').values({ app_id: appId, jti, expires_at: expiresAt.toISOString() })
        .onConflict((oc) => oc.columns(['app_id', 'jti']).doNothing()).executeTakeFirst();
      return Number(res.numInsertedOrUpdatedRows ?? 0n) === 1;
    });
  }

  /**
   * Deletes what can no longer be used: tokens past expiry, and codes expired for more than
   * `codeGraceSeconds` (kept a while so a late replay still revokes what the code issued).
   */
  async purgeExpired(now: Date, codeGraceSeconds = 86_400): Promise<{ tokens: number; codes: number }> {
    const tokens = await this.#db.kysely.deleteFrom('tokens').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
    const codes = await this.#db.kysely.deleteFrom('auth_codes')
      .where('expires_at', '<=', new Date(now.getTime() - codeGraceSeconds * 1000).toISOString()).executeTakeFirst();
    return { tokens: Number(tokens.numDeletedRows), codes: Number(codes.numDeletedRows) };
  }
}
