import { EsignError } from '../../errors.ts';
import type { ProfileStore } from './user-admin-ports.ts';
import type { Profile, ProfileDraft } from './user-admin.ts';

export async function getProfile(store: ProfileStore, accountId: string, profileId: string): Promise<Profile> {
  const profile = profileId.length <= 100 ? await store.findProfile(accountId, profileId) : undefined;
  if (!profile) throw new EsignError('INVALID_PERMISSION_PROFILE_ID', `"${profileId}" is not a permission profile of the account.`);
  return profile;
}

/** AccountsApi.createPermissionProfile: a name is required; settings left out read as denied. */
export async function createProfile(store: ProfileStore, accountId: string, draft: ProfileDraft, by: string, at: Date): Promise<Profile> {
  if (draft.name === undefined) throw new EsignError('INVALID_REQUEST_BODY', 'permissionProfileName is required.');
  return store.insertProfile(accountId, { name: draft.name, settings: draft.settings }, by, at);
}

/**
 * AccountsApi.updatePermissionProfile: the name and the settings named change, the others stay
 * (DocuSign's permissionChangeSingleSetting example sends one). The Account Administrator
 * profile cannot be changed, as on DocuSign, so an account always has a profile that manages it.
 */
export async function updateProfile(store: ProfileStore, accountId: string, profileId: string, draft: ProfileDraft, by: string, at: Date): Promise<Profile> {
  const profile = await getProfile(store, accountId, profileId);
  if (profile.kind === 'admin') throw new EsignError('INVALID_REQUEST_PARAMETER', 'The Account Administrator profile cannot be changed.');
  return store.updateProfile(accountId, profileId, draft, by, at);
}

/**
 * AccountsApi.deletePermissionProfile: refused while users or groups have the profile, unless
 * `move_users_to` names another profile to give them; DocuSign's three defaults stay.
 */
export async function deleteProfile(store: ProfileStore, accountId: string, profileId: string, moveTo: string | undefined): Promise<void> {
  const profile = await getProfile(store, accountId, profileId);
  if (profile.kind !== null) throw new EsignError('INVALID_REQUEST_PARAMETER', `"${profile.name}" is one of the account's default profiles and cannot be deleted.`);
  if (moveTo !== undefined) {
    if (moveTo === profileId) throw new EsignError('INVALID_REQUEST_PARAMETER', 'move_users_to names the profile being deleted.');
    await getProfile(store, accountId, moveTo);
  }
  if ((await store.deleteProfile(accountId, profileId, moveTo)) === 'in-use') {
    throw new EsignError('PERMISSION_PROFILE_IN_USE', `"${profile.name}" has ${profile.userCount} user(s) or groups.`);
  }
}
