import { EsignError } from '../../errors.ts';
import type { AccountSettings, AccountSettingsPatch } from './account-settings.ts';
import type { AccountSettingsStore } from './account-settings-ports.ts';

/** AccountsApi.listSettings: any member reads them (membership is checked by the API guard). */
export async function getAccountSettings(store: AccountSettingsStore, accountId: string): Promise<AccountSettings> {
  const settings = await store.find(accountId);
  // The API guard let a member of this account through, so the account exists.
  if (!settings) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  return settings;
}

/**
 * AccountsApi.updateSettings: only the account's administrator may change them (DocuSign's
 * USER_LACKS_PERMISSIONS for any other member); the patch is written whole or not at all.
 */
export async function updateAccountSettings(store: AccountSettingsStore, input: { userId: string; accountId: string; patch: AccountSettingsPatch; now: Date }): Promise<AccountSettings> {
  if (!(await store.isAdmin(input.userId, input.accountId))) {
    throw new EsignError('USER_LACKS_PERMISSIONS', 'Only the account\'s administrator may change its settings.');
  }
  await store.update(input.accountId, input.patch, input.now);
  return getAccountSettings(store, input.accountId);
}
