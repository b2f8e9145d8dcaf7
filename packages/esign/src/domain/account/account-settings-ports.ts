import type { AccountLook, AccountSettings, AccountSettingsPatch, VerifyAuditIpMode } from './account-settings.ts';

/** Account settings persistence (store/account-settings-repository.ts). Every call names the account. */
export interface AccountSettingsStore {
  /** The account's settings, or undefined when there is no such account. */
  find(accountId: string): Promise<AccountSettings | undefined>;
  /** The parts envelopes read (no account: nothing set). */
  look(accountId: string): Promise<AccountLook>;
  /** Whether the member's permission profile allows managing the account (allowAccountManagement). */
  isAdmin(userId: string, accountId: string): Promise<boolean>;
  /**
   * Writes every field of the patch in one transaction, or none. Choosing hashed IPs gives the
   * account its hashing key in the same transaction, the first time.
   */
  update(accountId: string, patch: AccountSettingsPatch, at: Date): Promise<void>;
  /** How /verify shows the account's audit-trail IPs, and the account's key for hashing them. */
  verifyPolicy(accountId: string): Promise<{ readonly mode: VerifyAuditIpMode; readonly language?: AccountLook['language']; readonly ipKey?: string }>;
}
