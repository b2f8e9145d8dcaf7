import { normalizeEmail } from '../../domain/email-address.ts';
import type { GroupDraft, Invitee, ProfileDraft } from '../../domain/users/user-admin.ts';
import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import { parseRoleSettings } from '../../wire/parse-role-settings.ts';
import type { WireReader } from '../../wire/wire-reader.ts';
import { HONOURED, MAX_ITEMS, OUTPUT, modelBody, refused } from './users-wire.ts';


function bounded(reader: WireReader, what: string): WireReader[] {
  const items = reader.items();
  if (items.length === 0) reader.fail(`must name at least one ${what}.`);
  if (items.length > MAX_ITEMS) reader.fail(`may name at most ${MAX_ITEMS} ${what}s.`);
  return items;
}

/** DocuSign's PermissionProfile (node_modules/docusign-esign/src/model/PermissionProfile.js). */
const PROFILE_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  permissionProfileName: HONOURED, settings: HONOURED,
  permissionProfileId: OUTPUT, modifiedByUsername: OUTPUT, modifiedDateTime: OUTPUT, userCount: OUTPUT,
  users: refused('a profile\'s users are given with UsersApi.updateUser permissionProfileId'),
};

export function parseProfile(body: unknown): ProfileDraft {
  const r = modelBody(body, 'PermissionProfile');
  checkModelFields(r, 'PermissionProfile', PROFILE_FIELDS);
  return { name: r.field('permissionProfileName').optionalString(100), settings: parseRoleSettings(r.field('settings')) };
}

/** DocuSign's UserInformation (src/model/UserInformation.js): what createUsers and updateUser take. */
const USER_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  userName: HONOURED, firstName: HONOURED, middleName: refused('a middle name is not kept; use userName'), lastName: HONOURED, email: HONOURED,
  permissionProfileId: HONOURED, groupList: HONOURED,
  sendActivationEmail: { rule: 'limited', why: 'every invited user gets the activation mail with the link that sets their password', allow: ['true'] },
  userId: OUTPUT, uri: OUTPUT, userStatus: OUTPUT, createdDateTime: OUTPUT, userAddedToAccountDateTime: OUTPUT, isAdmin: OUTPUT, permissionProfileName: OUTPUT,
  errorDetails: OUTPUT, userType: OUTPUT, loginStatus: OUTPUT, defaultAccountId: OUTPUT, lastLogin: OUTPUT,
  activationAccessCode: HONOURED,
  company: refused('user profiles (company, title, addresses) are not supported'), jobTitle: refused('user profiles are not supported'), title: refused('user profiles are not supported'),
  suffixName: refused('user profiles are not supported'), homeAddress: refused('user profiles are not supported'), workAddress: refused('user profiles are not supported'),
  countryCode: refused('user profiles are not supported'), subscribe: refused('subscriptions are not supported'),
  connectConfigurations: refused('per-user Connect configurations are not supported'), enableConnectForUser: refused('per-user Connect configurations are not supported'),
  customSettings: refused('custom user settings are not supported'), userSettings: refused('user settings are not supported'),
  forgottenPasswordInfo: refused('security questions are not supported'), password: refused('the user sets their own password with the invitation\'s link'),
  passwordExpiration: refused('password expiry is not supported'), sendActivationOnInvalidLogin: refused('not supported'),
  isAlternateAdmin: refused('alternate administrators are not supported'), hasRemoteNotary: refused('remote notary is not supported'), isNAREnabled: refused('notary features are not supported'),
  licenseStatus: refused('licenses are not supported'), licenseType: refused('licenses are not supported'),
  isManagedByScim: refused('SCIM is not supported'), isMembershipManagedByScim: refused('SCIM is not supported'),
  initialsImageUri: OUTPUT, signatureImageUri: OUTPUT, profileImageUri: OUTPUT, userProfileLastModifiedDate: OUTPUT,
};

function nameOf(r: WireReader): string | undefined {
  const userName = r.field('userName').optionalString(200);
  if (userName !== undefined) return userName;
  const parts = [r.field('firstName').optionalString(100), r.field('lastName').optionalString(100)].filter((p) => p !== undefined);
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** UsersApi.create's NewUsersDefinition: `newUsers`, each with an e-mail and a name. */
export function parseNewUsers(body: unknown): Invitee[] {
  const r = modelBody(body, 'NewUsersDefinition');
  return bounded(r.field('newUsers'), 'user').map((u) => {
    checkModelFields(u, 'UserInformation', USER_FIELDS);
    const name = nameOf(u) ?? u.field('userName').fail('is required (or firstName and lastName).');
    return {
      email: normalizeEmail(u.field('email').string(254)),
      name,
      profileId: u.field('permissionProfileId').optionalString(100),
      // A group named twice is one membership (as the users list of UserInfoList below).
      groupIds: [...new Set(u.field('groupList').items().map((g) => g.field('groupId').string(100)))],
      ...activationCodeOf(u),
    };
  });
}

/**
 * activationAccessCode: DocuSign documents it as at most 50 characters without <, >, & or #
 * (the sharedAccess how-to's {ACTIVATION}); the invited user types it to activate.
 */
function activationCodeOf(u: WireReader): { activationCode?: string } {
  const field = u.field('activationAccessCode');
  const code = field.optionalString(50);
  if (code === undefined) return {};
  if (/[<>&#]/.test(code)) field.fail('must not contain <, >, & or #.');
  return { activationCode: code };
}

/** UsersApi.updateUser's UserInformation: the name and the permission profile. */
export function parseUserUpdate(body: unknown): UserUpdate {
  return readUserUpdate(modelBody(body, 'UserInformation'));
}

/** What a UserInformation may change of a user (updateUser, updateProfile's userDetails, updateUsers' users). */
export type UserUpdate = { name?: string | undefined; profileId?: string | undefined };

export function readUserUpdate(r: WireReader): UserUpdate {
  checkModelFields(r, 'UserInformation', { ...USER_FIELDS, activationAccessCode: refused('an activation code is set when the user is invited'), email: refused('a user\'s e-mail address is their login and is not changed here'), groupList: refused('use GroupsApi.updateGroupUsers') });
  return { name: nameOf(r), profileId: r.field('permissionProfileId').optionalString(100) };
}

/** UserInfoList (UsersApi._delete, GroupsApi.updateGroupUsers/deleteGroupUsers): `users[].userId`. */
export function parseUserIds(body: unknown): string[] {
  const r = modelBody(body, 'UserInfoList');
  return [...new Set(bounded(r.field('users'), 'user').map((u) => u.field('userId').string(100)))];
}

/** DocuSign's Group (src/model/Group.js). */
const GROUP_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  groupId: HONOURED, groupName: HONOURED, permissionProfileId: HONOURED,
  groupType: { rule: 'limited', why: 'only custom groups are made here', allow: ['customgroup'] },
  usersCount: OUTPUT, lastModifiedOn: OUTPUT, errorDetails: OUTPUT, dsGroupId: OUTPUT, isManagedByScim: OUTPUT, userGroupType: OUTPUT,
  accessType: refused('group access types are not supported'),
  users: refused('a group\'s users are added with GroupsApi.updateGroupUsers'),
};

/** GroupInformation (createGroups, updateGroups, deleteGroups): `groups`. */
export function parseGroups(body: unknown): GroupDraft[] {
  const r = modelBody(body, 'GroupInformation');
  return bounded(r.field('groups'), 'group').map((g) => {
    checkModelFields(g, 'Group', GROUP_FIELDS);
    return { id: g.field('groupId').optionalString(100), name: g.field('groupName').optionalString(100), profileId: g.field('permissionProfileId').optionalString(100) };
  });
}
