import type { MailMessage } from '../domain/mail/mail-message.ts';
import { insertUserWithAccount } from './accounts-repository.ts';
import type { Db } from './database.ts';
import { enqueueMails } from './outbox-repository.ts';
import type { SignupRequestRow } from './schema.ts';

/** A sign-up waiting for its e-mail link, as the verification page needs it. */
export type PendingSignup = { email: string; name: string; passwordHash: string };

/**
 * Sign-ups that wait for their e-mail address to be verified. Nothing is created in `users`
 * until the link is used, so an address nobody verified can neither log in nor send.
 */
export class SignupRequestsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * Records a sign-up and queues its mail in one transaction: a verification link for a new
   * address, the "you already have an account" notice for a registered one. At most
   * `maxPerHour` mails per address per hour, so the form cannot flood an inbox; past that
   * nothing is recorded and the caller answers the same.
   */
  async request(input: {
    tokenHash: string; email: string; name: string; passwordHash: string; now: Date; expiresAt: Date; maxPerHour: number;
    mailFor: (registered: boolean) => MailMessage;
  }): Promise<'queued' | 'limited'> {
    return this.#db.transaction(async (trx) => {
      const hourAgo = new Date(input.now.getTime() - 3_600_000).toISOString();
      const recent = await trx.selectFrom('signup_requests').select((eb) => eb.fn.countAll<number>().as('n'))
        .where('email', '=', input.email).where('created_at', '>', hourAgo).executeTakeFirstOrThrow();
      if (Number(recent.n) >= input.maxPerHour) return 'limited';
      const registered = (await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst()) !== undefined;
      await trx.insertInto('signup_requests').values({
        token_hash: input.tokenHash, email: input.email, name: input.name, password_hash: registered ? null : input.passwordHash,
        created_at: input.now.toISOString(), expires_at: input.expiresAt.toISOString(), consumed_at: null,
      }).execute();
      // Sign-up mail belongs to no account yet: it has a turn of its own in the outbox.
      await enqueueMails(trx, [input.mailFor(registered)], input.now, null);
      return 'queued';
    });
  }

  /** The sign-up behind a link, while it is unused, unexpired and for an address not yet registered. */
  async findPending(tokenHash: string, now: Date): Promise<PendingSignup | undefined> {
    const row = await this.#db.kysely.selectFrom('signup_requests').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
    return row && usable(row, now) ? { email: row.email, name: row.name, passwordHash: row.password_hash as string } : undefined;
  }

  /**
   * Uses a link: in one transaction marks it used (only if still unused, so of two concurrent
   * uses one wins), creates the user with an account, and retires the address's other links.
   * `exists` when the address was registered meanwhile; `invalid` when the link is no longer usable.
   */
  async complete(tokenHash: string, now: Date): Promise<{ userId: string; accountId: string } | 'exists' | 'invalid'> {
    return this.#db.transaction(async (trx) => {
      const row = await trx.selectFrom('signup_requests').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      if (!row || !usable(row, now)) return 'invalid';
      const at = now.toISOString();
      const used = await trx.updateTable('signup_requests').set({ consumed_at: at }).where('token_hash', '=', tokenHash).where('consumed_at', 'is', null).executeTakeFirst();
      if (Number(used.numUpdatedRows) !== 1) return 'invalid';
      await trx.updateTable('signup_requests').set({ consumed_at: at }).where('email', '=', row.email).where('consumed_at', 'is', null).execute();
      const created = await insertUserWithAccount(trx, { email: row.email, name: row.name, passwordHash: row.password_hash as string, accountName: row.name, now });
      return created ?? 'exists';
    });
  }

  /** Deletes requests past their expiry (the hourly mail limit only looks one hour back). */
  async purgeExpired(now: Date): Promise<number> {
    const res = await this.#db.kysely.deleteFrom('signup_requests').where('expires_at', '<=', now.toISOString()).executeTakeFirst();
    return Number(res.numDeletedRows);
  }
}

function usable(row: SignupRequestRow, now: Date): boolean {
  return row.consumed_at === null && row.password_hash !== null && row.expires_at > now.toISOString();
}
