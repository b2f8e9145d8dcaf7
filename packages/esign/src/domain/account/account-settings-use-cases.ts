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
 * AccountsApi.updateSettings: only a member whose permission profile allows managing the
 * account may change them (DocuSign's USER_LACKS_PERMISSIONS for any other member; the API
 * guard checks it first, domain/users/route-permission.ts); the patch is written whole or not at all.
 */
export async function updateAccountSettings(store: AccountSettingsStore, input: { userId: string; accountId: string; patch: AccountSettingsPatch; now: Date }): Promise<AccountSettings> {
  if (!(await store.isAdmin(input.userId, input.accountId))) {
    throw new EsignError('USER_LACKS_PERMISSIONS', 'The user\'s permission profile does not allow managing the account (allowAccountManagement).');
  }
  await store.update(input.accountId, input.patch, input.now);
  return getAccountSettings(store, input.accountId);
}
