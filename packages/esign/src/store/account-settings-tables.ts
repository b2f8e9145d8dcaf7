import { sql } from 'kysely';
import type { Migration } from './migrations.ts';

/**
 * An account's settings (domain/account/account-settings.ts): one row per account that set any,
 * a null column for a setting left as the service's default. `ip_hash_key` is the account's
 * secret for hashing audit-trail IPs on /verify (hex, made when hashing is first chosen).
 */
export type AccountSettingsRow = {
  account_id: string;
  language: string | null;
  sign_date_format: string | null;
  sign_time_format: string | null;
  verify_audit_ips: string | null;
  ip_hash_key: string | null;
  updated_at: string;
};

export type AccountSettingsTables = { account_settings: AccountSettingsRow };

/**
 * The stored account settings, and who administers each account: the member who opened it
 * (DocuSign's account administrator, the only one who may change its settings). Existing
 * accounts get their first member, by when they joined, as administrator.
 */
export const ACCOUNT_SETTINGS_MIGRATION: Migration = {
  version: 110,
  name: 'account settings and account administrators',
  async up(db) {
    await db.schema.createTable('account_settings')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.id'))
      .addColumn('language', 'text')
      .addColumn('sign_date_format', 'text')
      .addColumn('sign_time_format', 'text')
      .addColumn('verify_audit_ips', 'text')
      .addColumn('ip_hash_key', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.alterTable('memberships').addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update memberships set is_admin = 1 where created_at = (select min(m.created_at) from memberships m where m.account_id = memberships.account_id)`.execute(db);
  },
};
