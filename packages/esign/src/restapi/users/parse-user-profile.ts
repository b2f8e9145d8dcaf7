import { checkModelFields, type ModelFieldRule } from '../../wire/check-model-fields.ts';
import { readUserUpdate, type UserUpdate } from './parse-user-admin.ts';
import { HONOURED, OUTPUT, modelBody, refused } from './users-wire.ts';

const PROFILE_DATA = refused('user profile data (company, title, addresses, what the profile displays) is not kept; a user has a name, an e-mail and a permission profile');
// The most users one updateUsers call takes, as for the other user lists (parse-user-admin.ts).
const MAX_USERS = 100;

/** DocuSign's UserProfile (node_modules/docusign-esign/src/model/UserProfile.js): only userDetails changes a user here. */
const USER_PROFILE_FIELDS: Readonly<Record<string, ModelFieldRule>> = {
  userDetails: HONOURED,
  address: PROFILE_DATA, companyName: PROFILE_DATA, title: PROFILE_DATA,
  displayOrganizationInfo: PROFILE_DATA, displayPersonalInfo: PROFILE_DATA, displayProfile: PROFILE_DATA, displayUsageHistory: PROFILE_DATA,
  authenticationMethods: OUTPUT, usageHistory: OUTPUT, profileImageUri: OUTPUT, userProfileLastModifiedDate: OUTPUT,
};

/** UsersApi.updateProfile's UserProfile: the userDetails, read as updateUser reads a UserInformation. */
export function parseUserProfileUpdate(body: unknown): UserUpdate {
  const r = modelBody(body, 'UserProfile');
  checkModelFields(r, 'UserProfile', USER_PROFILE_FIELDS);
  return readUserUpdate(r.field('userDetails'));
}

/** UsersApi.updateUsers' UserInformationList: each user by userId, with what updateUser takes. */
export function parseUsersUpdate(body: unknown): (UserUpdate & { userId: string })[] {
  const r = modelBody(body, 'UserInformationList');
  const users = r.field('users').items();
  if (users.length === 0) r.field('users').fail('must name at least one user.');
  if (users.length > MAX_USERS) r.field('users').fail(`may name at most ${MAX_USERS} users.`);
  const seen = new Set<string>();
  return users.map((u) => {
    const userId = u.field('userId').string(100);
    if (seen.has(userId)) u.field('userId').fail(`names user "${userId}" a second time.`);
    seen.add(userId);
    return { userId, ...readUserUpdate(u) };
  });
}
