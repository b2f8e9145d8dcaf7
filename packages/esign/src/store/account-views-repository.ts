import type { Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { AccountViewRow } from './account-view-tables.ts';
import type { Database } from './schema.ts';

export type AccountViewKind = 'sender' | 'edit' | 'console' | 'correct';

/** An account view as the console reads it (store/account-view-tables.ts). */
export type AccountView = {
  readonly id: string;
  readonly accountId: string;
  readonly userId: string;
  readonly kind: AccountViewKind;
  readonly envelopeId: string | undefined;
  readonly sendAction: 'send' | 'redirect';
  readonly returnUrl: string | undefined;
  readonly expiresAt: Date;
};

function toView(row: AccountViewRow): AccountView {
  return { id: row.id, accountId: row.account_id, userId: row.user_id, kind: row.kind as AccountViewKind, envelopeId: row.envelope_id ?? undefined, sendAction: row.send_action === 'redirect' ? 'redirect' : 'send', returnUrl: row.return_url ?? undefined, expiresAt: new Date(row.expires_at) };
}

/** The sender, edit and console views' single-use URLs. */
export class AccountViewsRepository {
  readonly #k: Kysely<Database>;
  constructor(db: Db) {
    this.#k = db.kysely;
  }

  async create(row: { id: string; tokenHash: string; accountId: string; userId: string; kind: AccountViewKind; envelopeId?: string; sendAction?: 'send' | 'redirect'; returnUrl?: string; createdAt: Date; expiresAt: Date }): Promise<void> {
    await this.#k.insertInto('account_views').values({
      id: row.id, token_hash: row.tokenHash, account_id: row.accountId, user_id: row.userId, kind: row.kind, envelope_id: row.envelopeId ?? null, send_action: row.sendAction ?? 'send',
      return_url: row.returnUrl ?? null, created_at: row.createdAt.toISOString(), expires_at: row.expiresAt.toISOString(), consumed_at: null,
    }).execute();
  }

  /**
   * Redeems a view once: the UPDATE only matches an unconsumed, unexpired row, so of two
   * concurrent redemptions exactly one gets it. Undefined for unknown, used or expired.
   */
  async redeem(tokenHash: string, now: Date): Promise<AccountView | undefined> {
    const res = await this.#k.updateTable('account_views').set({ consumed_at: now.toISOString() })
      .where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).where('expires_at', '>', now.toISOString()).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) return undefined;
    const row = await this.#k.selectFrom('account_views').selectAll().where('token_hash', '=', tokenHash).executeTakeFirstOrThrow();
    return toView(row);
  }

  /** A redeemed view by its (non-secret) id, for the page it opened: only its own user's. */
  async redeemedById(id: string, userId: string): Promise<AccountView | undefined> {
    const row = await this.#k.selectFrom('account_views').selectAll().where('id', '=', id).where('user_id', '=', userId).where('consumed_at', 'is not', null).executeTakeFirst();
    return row && toView(row);
  }

  /** Drops views that expired more than `retentionMs` ago (a page may still name its view until then). */
  async purgeExpired(now: Date, retentionMs: number): Promise<number> {
    const res = await this.#k.deleteFrom('account_views').where('expires_at', '<=', new Date(now.getTime() - retentionMs).toISOString()).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}
