import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { DEFAULT_PROFILES, type DefaultProfileKind } from '../domain/users/role-settings.ts';
import type { Migration } from './migrations.ts';
import type { Database } from './schema.ts';

/**
 * A permission profile (DocuSign's PermissionProfile): `settings` is the JSON of its
 * AccountRoleSettings strings; `kind` marks the three defaults every account has.
 */
export type PermissionProfileRow = {
  id: string; account_id: string; name: string; kind: string | null; settings: string;
  created_at: string; modified_at: string; modified_by: string | null;
};
export type AccountGroupRow = { id: string; account_id: string; name: string; permission_profile_id: string | null; created_at: string; modified_at: string };
export type GroupMemberRow = { group_id: string; user_id: string; created_at: string };
/** An invitation's single-use link (only its hash is kept). */
export type UserInvitationRow = {
  token_hash: string; user_id: string; account_id: string; created_at: string; expires_at: string; consumed_at: string | null;
  /** The activation code's scrypt hash and the wrong tries so far (store/user-authorization-tables.ts, migration 191). */
  activation_code_hash?: string | null; code_failures?: number;
};

export type UserAdminTables = {
  permission_profiles: PermissionProfileRow;
  account_groups: AccountGroupRow;
  group_members: GroupMemberRow;
  user_invitations: UserInvitationRow;
};

/** Inside the caller's transaction: the account's three default profiles; their ids by kind. */
export async function insertDefaultProfiles(trx: Kysely<Database>, accountId: string, at: string): Promise<Record<DefaultProfileKind, string>> {
  const ids = { admin: randomUUID(), sender: randomUUID(), viewer: randomUUID() };
  for (const kind of ['admin', 'sender', 'viewer'] as const) {
    const p = DEFAULT_PROFILES[kind];
    await trx.insertInto('permission_profiles').values({ id: ids[kind], account_id: accountId, name: p.name, kind, settings: JSON.stringify(p.settings), created_at: at, modified_at: at, modified_by: null }).execute();
  }
  return ids;
}

/**
 * Users, groups and permission profiles (docs/esign-users.md). A membership gains its status
 * (`active`, `pending` until the invitation's link is used, `closed` once removed) and its
 * permission profile. Every existing account gets the three default profiles; its
 * administrator (memberships.is_admin) the Account Administrator profile, the other members
 * DocuSign Sender.
 */
export const USER_ADMIN_MIGRATION: Migration = {
  version: 140,
  name: 'users, groups and permission profiles',
  async up(db) {
    await db.schema.createTable('permission_profiles')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('kind', 'text')
      .addColumn('settings', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('modified_at', 'text', (c) => c.notNull())
      .addColumn('modified_by', 'text')
      .execute();
    await db.schema.createIndex('permission_profiles_account_name').on('permission_profiles').columns(['account_id', 'name']).unique().execute();
    await db.schema.createTable('account_groups')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('permission_profile_id', 'text', (c) => c.references('permission_profiles.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('modified_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('account_groups_account').on('account_groups').column('account_id').execute();
    await db.schema.createTable('group_members')
      .addColumn('group_id', 'text', (c) => c.notNull().references('account_groups.id'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createTable('user_invitations')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.id'))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('consumed_at', 'text')
      .execute();
    await db.schema.alterTable('memberships').addColumn('status', 'text', (c) => c.notNull().defaultTo('active')).execute();
    await db.schema.alterTable('memberships').addColumn('permission_profile_id', 'text').execute();
    await db.schema.alterTable('memberships').addColumn('closed_at', 'text').execute();
    const at = new Date().toISOString();
    for (const account of await db.selectFrom('accounts').select('id').execute()) {
      const ids = await insertDefaultProfiles(db, account.id, at);
      await db.updateTable('memberships').set({ permission_profile_id: ids.admin }).where('account_id', '=', account.id).where('is_admin', '=', 1).execute();
      await db.updateTable('memberships').set({ permission_profile_id: ids.sender }).where('account_id', '=', account.id).where('is_admin', '=', 0).execute();
    }
  },
};
