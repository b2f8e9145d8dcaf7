import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Db } from './database.ts';
import type { AccountRow, Database, UserRow } from './schema.ts';
import { insertDefaultProfiles } from './user-admin-tables.ts';

/**
 * Inside the caller's transaction: a new user with their own new account (as DocuSign's sign-up
 * does). Returns undefined when the e-mail is taken.
 */
export async function insertUserWithAccount(trx: Kysely<Database>, input: { email: string; name: string; passwordHash: string; accountName: string; now: Date }): Promise<{ userId: string; accountId: string } | undefined> {
  const userId = randomUUID();
  const accountId = randomUUID();
  const at = input.now.toISOString();
  const taken = await trx.selectFrom('users').select('id').where('email', '=', input.email).executeTakeFirst();
  if (taken) return undefined;
  await trx.insertInto('accounts').values({ id: accountId, name: input.accountName, created_at: at }).execute();
  await trx.insertInto('users').values({ id: userId, email: input.email, name: input.name, password_hash: input.passwordHash, created_at: at }).execute();
  const profiles = await insertDefaultProfiles(trx, accountId, at);
  await trx.insertInto('memberships').values({ user_id: userId, account_id: accountId, is_default: 1, is_admin: 1, created_at: at, status: 'active', permission_profile_id: profiles.admin, closed_at: null }).execute();
  return { userId, accountId };
}

/** An account the user belongs to, as userinfo and the console list it. */
export type UserAccount = { accountId: string; accountName: string; isDefault: boolean; createdAt: string };

/** Users, accounts and who belongs where. */
export class AccountsRepository {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  /**
   * A new user with their own new account (as DocuSign's sign-up does), in one transaction.
   * Returns undefined when the e-mail is taken.
   */
  createUserWithAccount(input: { email: string; name: string; passwordHash: string; accountName: string; now: Date }): Promise<{ userId: string; accountId: string } | undefined> {
    return this.#db.transaction((trx) => insertUserWithAccount(trx, input));
  }

  /** Adds an existing user to an existing account (not default), with the DocuSign Sender profile. */
  async addMembership(userId: string, accountId: string, now: Date): Promise<void> {
    const sender = await this.#db.kysely.selectFrom('permission_profiles').select('id').where('account_id', '=', accountId).where('kind', '=', 'sender').executeTakeFirst();
    await this.#db.kysely.insertInto('memberships').values({ user_id: userId, account_id: accountId, is_default: 0, is_admin: 0, created_at: now.toISOString(), status: 'active', permission_profile_id: sender?.id ?? null, closed_at: null }).execute();
  }

  findUserByEmail(email: string): Promise<UserRow | undefined> {
    return this.#db.kysely.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  findUserById(id: string): Promise<UserRow | undefined> {
    return this.#db.kysely.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findAccount(id: string): Promise<AccountRow | undefined> {
    return this.#db.kysely.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The user's accounts, the default first. */
  async accountsOf(userId: string): Promise<UserAccount[]> {
    const rows = await this.#db.kysely
      .selectFrom('memberships')
      .innerJoin('accounts', 'accounts.id', 'memberships.account_id')
      .select(['accounts.id', 'accounts.name', 'accounts.created_at', 'memberships.is_default'])
      .where('memberships.user_id', '=', userId)
      .where('memberships.status', '=', 'active')
      .orderBy('memberships.is_default', 'desc')
      .orderBy('accounts.created_at')
      .execute();
    return rows.map((r) => ({ accountId: r.id, accountName: r.name, isDefault: Number(r.is_default) === 1, createdAt: r.created_at }));
  }

  /** An active member only: an invited user is not one before the link, a removed one no longer. */
  async isMember(userId: string, accountId: string): Promise<boolean> {
    return (await this.memberSettings(userId, accountId)) !== undefined;
  }

  /**
   * The settings of an active member's permission profile (JSON strings, domain/users/role-settings.ts),
   * read with each request so a change or a removal applies to the member's tokens at once;
   * undefined for anyone who is not an active member.
   */
  async memberSettings(userId: string, accountId: string): Promise<Record<string, string> | undefined> {
    const row = await this.#db.kysely.selectFrom('memberships')
      .leftJoin('permission_profiles', 'permission_profiles.id', 'memberships.permission_profile_id')
      .select(['memberships.user_id', 'permission_profiles.settings'])
      .where('memberships.user_id', '=', userId).where('memberships.account_id', '=', accountId).where('memberships.status', '=', 'active')
      .executeTakeFirst();
    if (!row) return undefined;
    return row.settings ? JSON.parse(row.settings) as Record<string, string> : {};
  }
}
