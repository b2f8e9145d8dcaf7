import type { Db } from './database.ts';

/** An invitation behind a link, as its page needs it. */
export type OpenInvitation = {
  readonly userId: string; readonly accountId: string; readonly email: string; readonly accountName: string; readonly hasPassword: boolean;
  /** The activation code's hash when the invitation has one (UsersApi.create activationAccessCode). */
  readonly activationCodeHash?: string | undefined;
};

/** Wrong activation codes a link takes before it is retired: the code may be short, the link is not guessable. */
export const ACTIVATION_CODE_TRIES = 5;

/** The single-use links of invited users (store/user-admin-tables.ts). */
export class InvitationsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /** The invitation while unused, unexpired and its membership still pending. */
  async find(tokenHash: string, now: Date): Promise<OpenInvitation | undefined> {
    const row = await this.#db.kysely.selectFrom('user_invitations as i')
      .innerJoin('users as u', 'u.id', 'i.user_id')
      .innerJoin('accounts as a', 'a.id', 'i.account_id')
      .innerJoin('memberships as m', (j) => j.onRef('m.user_id', '=', 'i.user_id').onRef('m.account_id', '=', 'i.account_id'))
      .select(['i.user_id', 'i.account_id', 'u.email', 'a.name', 'u.password_hash', 'i.activation_code_hash'])
      .where('i.token_hash', '=', tokenHash).where('i.consumed_at', 'is', null).where('i.expires_at', '>', now.toISOString()).where('m.status', '=', 'pending')
      .executeTakeFirst();
    return row && {
      userId: row.user_id, accountId: row.account_id, email: row.email, accountName: row.name, hasPassword: row.password_hash !== '',
      ...(row.activation_code_hash ? { activationCodeHash: row.activation_code_hash } : {}),
    };
  }

  /** Counts a wrong activation code; the ACTIVATION_CODE_TRIES-th retires the link. True when it was retired. */
  async codeFailed(tokenHash: string, now: Date): Promise<boolean> {
    return this.#db.transaction(async (trx) => {
      await trx.updateTable('user_invitations').set((eb) => ({ code_failures: eb('code_failures', '+', 1) })).where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).execute();
      const retired = await trx.updateTable('user_invitations').set({ consumed_at: now.toISOString() })
        .where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).where('code_failures', '>=', ACTIVATION_CODE_TRIES).executeTakeFirst();
      return Number(retired.numUpdatedRows) === 1;
    });
  }

  /**
   * Uses the link in one transaction: marks it used (of two concurrent uses one wins), sets the
   * password of a user who has none, and makes the membership active (the user's default
   * account when they have no other). False when the link is no longer usable.
   */
  accept(tokenHash: string, passwordHash: string | undefined, now: Date): Promise<{ userId: string } | undefined> {
    return this.#db.transaction(async (trx) => {
      const at = now.toISOString();
      const row = await trx.selectFrom('user_invitations').selectAll().where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).where('expires_at', '>', at).executeTakeFirst();
      if (!row) return undefined;
      const used = await trx.updateTable('user_invitations').set({ consumed_at: at }).where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return undefined;
      const activated = await trx.updateTable('memberships').set({ status: 'active' })
        .where('user_id', '=', row.user_id).where('account_id', '=', row.account_id).where('status', '=', 'pending').executeTakeFirst();
      if (Number(activated.numUpdatedRows) !== 1) return undefined;
      if (passwordHash !== undefined) await trx.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', row.user_id).where('password_hash', '=', '').execute();
      const other = await trx.selectFrom('memberships').select('account_id').where('user_id', '=', row.user_id).where('is_default', '=', 1).where('status', '=', 'active').executeTakeFirst();
      if (!other) await trx.updateTable('memberships').set({ is_default: 1 }).where('user_id', '=', row.user_id).where('account_id', '=', row.account_id).execute();
      return { userId: row.user_id };
    });
  }
}
