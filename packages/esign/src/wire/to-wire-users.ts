import { enforcedValue, rightsOf } from '../domain/users/role-settings.ts';
import type { Group, Member, MemberStatus, Profile } from '../domain/users/user-admin.ts';

/** userStatus as DocuSign writes it (src/model/UserInformation.js: active, activationsent, closed…). */
const STATUS: Record<MemberStatus, string> = { active: 'Active', pending: 'ActivationSent', closed: 'Closed' };

function splitName(name: string): { firstName: string; lastName: string } {
  const [first, ...rest] = name.split(' ');
  return { firstName: first ?? name, lastName: rest.join(' ') };
}

/** A PermissionProfile (src/model/PermissionProfile.js), settings as stored strings. */
export function toWireProfile(p: Profile): Record<string, unknown> {
  return {
    permissionProfileId: p.id, permissionProfileName: p.name, modifiedDateTime: p.modifiedAt, modifiedByUsername: p.modifiedBy ?? '',
    userCount: String(p.userCount), settings: { ...p.settings },
  };
}

/** A UserInformation (src/model/UserInformation.js); isAdmin is whether the profile manages the account. */
export function toWireUser(m: Member, profiles: readonly Profile[]): Record<string, unknown> {
  const profile = profiles.find((p) => p.id === m.profileId);
  return {
    userId: m.userId, userName: m.name, ...splitName(m.name), email: m.email, userType: 'CompanyUser', userStatus: STATUS[m.status],
    uri: `/users/${m.userId}`, isAdmin: profile && rightsOf(profile.settings).manageAccount ? 'True' : 'False',
    ...(profile ? { permissionProfileId: profile.id, permissionProfileName: profile.name } : {}),
    createdDateTime: m.userCreatedAt, userAddedToAccountDateTime: m.addedAt,
    groupList: m.groups.map((g) => ({ groupId: g.id, groupName: g.name, groupType: 'customGroup' })),
  };
}

/** A UserInfo (src/model/UserInfo.js), as group user lists and deletions answer. */
export function toWireUserInfo(m: Member): Record<string, unknown> {
  return { userId: m.userId, userName: m.name, email: m.email, userStatus: STATUS[m.status], userType: 'CompanyUser', uri: `/users/${m.userId}` };
}

/** A Group (src/model/Group.js). */
export function toWireGroup(g: Group): Record<string, unknown> {
  return { groupId: g.id, groupName: g.name, groupType: 'customGroup', usersCount: String(g.userCount), lastModifiedOn: g.modifiedAt, ...(g.profileId ? { permissionProfileId: g.profileId } : {}) };
}

/** The paging fields of DocuSign's list answers (UserInformationList, GroupInformation, UsersResponse). */
export function page<T>(key: string, all: readonly T[], start: number, count: number, map: (x: T) => Record<string, unknown>): Record<string, unknown> {
  const slice = all.slice(start, start + count);
  return {
    [key]: slice.map(map), resultSetSize: String(slice.length), totalSetSize: String(all.length), startPosition: String(start),
    endPosition: String(slice.length === 0 ? start : start + slice.length - 1),
  };
}

/** A UserProfile (src/model/UserProfile.js): a user here is their UserInformation and nothing more. */
export function toWireUserProfile(m: Member, profiles: readonly Profile[]): Record<string, unknown> {
  return { userDetails: toWireUser(m, profiles) };
}

/**
 * A UserSettingsInformation (src/model/UserSettingsInformation.js): the settings of the user's
 * permission profile that this service enforces (docs/esign-users.md), as the user's own.
 */
export function toWireUserSettings(m: Member, profiles: readonly Profile[]): Record<string, unknown> {
  const profile = profiles.find((p) => p.id === m.profileId);
  const settings = profile?.settings ?? {};
  const rights = rightsOf(settings);
  return {
    canManageAccount: String(rights.manageAccount), canSendEnvelope: String(rights.send), canSendAPIRequests: String(rights.api),
    canManageTemplates: enforcedValue(settings, 'allowedTemplateAccess'),
  };
}
