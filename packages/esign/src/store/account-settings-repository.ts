import { rightsOf } from '../domain/users/role-settings.ts';
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AccountLook, AccountSettings, AccountSettingsPatch, VerifyAuditIpMode } from '../domain/account/account-settings.ts';
import type { AccountSettingsStore } from '../domain/account/account-settings-ports.ts';
import { isSignDateFormat, isSignTimeFormat } from '../domain/account/sign-date-format.ts';
import { isSupportedLanguage } from '../domain/language/languages.ts';
import type { AccountSettingsRow } from './account-settings-tables.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';

/**
 * The settings columns as the domain reads them. A stored value the code no longer knows (a
 * format removed in a later release) reads as unset, that is as the service's default.
 */
function lookOf(row: Pick<AccountSettingsRow, 'language' | 'sign_date_format' | 'sign_time_format'> | undefined): AccountLook {
  if (!row) return {};
  return {
    ...(row.language !== null && isSupportedLanguage(row.language) ? { language: row.language } : {}),
    ...(row.sign_date_format !== null && isSignDateFormat(row.sign_date_format) ? { signDateFormat: row.sign_date_format } : {}),
    ...(row.sign_time_format !== null && isSignTimeFormat(row.sign_time_format) ? { signTimeFormat: row.sign_time_format } : {}),
  };
}

const modeOf = (value: string | null | undefined): VerifyAuditIpMode => (value === 'hashed' ? 'hashed' : 'hidden');

/** The looks of several accounts in one query (envelope lists span one account, loads one). */
export async function loadAccountLooks(k: Kysely<Database>, accountIds: readonly string[]): Promise<Map<string, AccountLook>> {
  const ids = [...new Set(accountIds)];
  if (ids.length === 0) return new Map();
  const rows = await k.selectFrom('account_settings').select(['account_id', 'language', 'sign_date_format', 'sign_time_format']).where('account_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.account_id, lookOf(r)]));
}

/** Account settings over SQLite or PostgreSQL; every statement names the account. */
export class AccountSettingsRepository implements AccountSettingsStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async find(accountId: string): Promise<AccountSettings | undefined> {
    const row = await this.#db.kysely.selectFrom('accounts')
      .leftJoin('account_settings', 'account_settings.account_id', 'accounts.id')
      .select(['accounts.name', 'account_settings.language', 'account_settings.sign_date_format', 'account_settings.sign_time_format', 'account_settings.verify_audit_ips'])
      .where('accounts.id', '=', accountId)
      .executeTakeFirst();
    if (!row) return undefined;
    const look = lookOf({ language: row.language ?? null, sign_date_format: row.sign_date_format ?? null, sign_time_format: row.sign_time_format ?? null });
    return { accountName: row.name, ...look, ...(row.verify_audit_ips ? { verifyAuditIps: modeOf(row.verify_audit_ips) } : {}) };
  }

  async look(accountId: string): Promise<AccountLook> {
    return (await loadAccountLooks(this.#db.kysely, [accountId])).get(accountId) ?? {};
  }

  async isAdmin(userId: string, accountId: string): Promise<boolean> {
    const row = await this.#db.kysely.selectFrom('memberships')
      .innerJoin('permission_profiles', 'permission_profiles.id', 'memberships.permission_profile_id')
      .select('permission_profiles.settings')
      .where('memberships.user_id', '=', userId).where('memberships.account_id', '=', accountId).where('memberships.status', '=', 'active')
      .executeTakeFirst();
    return row !== undefined && rightsOf(JSON.parse(row.settings) as Record<string, string>).manageAccount;
  }

  async update(accountId: string, patch: AccountSettingsPatch, at: Date): Promise<void> {
    await this.#db.transaction(async (trx) => {
      if (patch.accountName !== undefined) await trx.updateTable('accounts').set({ name: patch.accountName }).where('id', '=', accountId).execute();
      const fields: Partial<AccountSettingsRow> = {
        ...(patch.language !== undefined ? { language: patch.language } : {}),
        ...(patch.signDateFormat !== undefined ? { sign_date_format: patch.signDateFormat } : {}),
        ...(patch.signTimeFormat !== undefined ? { sign_time_format: patch.signTimeFormat } : {}),
        ...(patch.verifyAuditIps !== undefined ? { verify_audit_ips: patch.verifyAuditIps } : {}),
      };
      if (Object.keys(fields).length === 0) return;
      // The hashing key is made once and kept (coalesce): a reader comparing two verifications of
      // one envelope sees the same hashes, and switching back and forth reveals nothing new.
      const key = patch.verifyAuditIps === 'hashed' ? randomBytes(32).toString('hex') : null;
      const updatedAt = at.toISOString();
      await trx.insertInto('account_settings')
        .values({ account_id: accountId, language: null, sign_date_format: null, sign_time_format: null, verify_audit_ips: null, ...fields, ip_hash_key: key, updated_at: updatedAt })
        .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...fields, ip_hash_key: sql<string | null>`coalesce(account_settings.ip_hash_key, ${key})`, updated_at: updatedAt }))
        .execute();
    });
  }

  async verifyPolicy(accountId: string): Promise<{ mode: VerifyAuditIpMode; language?: AccountLook['language']; ipKey?: string }> {
    const row = await this.#db.kysely.selectFrom('account_settings').select(['verify_audit_ips', 'ip_hash_key', 'language']).where('account_id', '=', accountId).executeTakeFirst();
    const mode = modeOf(row?.verify_audit_ips);
    const language = row?.language != null && isSupportedLanguage(row.language) ? row.language : undefined;
    return { mode: mode === 'hashed' && !row?.ip_hash_key ? 'hidden' : mode, ...(language ? { language } : {}), ...(mode === 'hashed' && row?.ip_hash_key ? { ipKey: row.ip_hash_key } : {}) };
  }
}
