import { EsignError } from '../../errors.ts';
import type { MailMessage } from '../mail/mail-message.ts';
import { getProfile } from './profile-use-cases.ts';
import type { Rights } from './role-settings.ts';
import type { GroupStore, MemberStore, ProfileStore } from './user-admin-ports.ts';
import type { Invitee, Member } from './user-admin.ts';

/** How long an invitation's link works. */
export const INVITATION_LINK_HOURS = 72;

export type UserDeps = {
  readonly members: MemberStore;
  readonly profiles: ProfileStore;
  readonly groups: GroupStore;
  readonly clock: () => Date;
  /** A fresh single-use link secret and the hash that is stored of it. */
  readonly newToken: () => { readonly token: string; readonly hash: string };
  /** The invitation mail for the link's secret. */
  readonly invitationMail: (input: { to: { email: string; name: string }; accountName: string; token: string; validHours: number }) => MailMessage;
};

/** A member of the account, closed ones included (they read as `closed`). */
export async function getUser(members: MemberStore, accountId: string, userId: string): Promise<Member> {
  const member = userId.length <= 100 ? await members.findMember(accountId, userId) : undefined;
  if (!member) throw new EsignError('INVALID_USERID', `"${userId}" is not a user of the account.`);
  return member;
}

async function checkGroups(groups: GroupStore, accountId: string, groupIds: readonly string[]): Promise<void> {
  for (const id of groupIds) {
    if (id.length > 100 || !(await groups.findGroup(accountId, id))) throw new EsignError('INVALID_GROUP_ID', `"${id}" is not a group of the account.`);
  }
}

/**
 * UsersApi.create: each new user becomes a pending member with the profile named (else DocuSign
 * Sender) and gets a mail with a single-use link, valid INVITATION_LINK_HOURS, that sets their
 * password (a new user) and activates the membership. All the users or none.
 */
export async function inviteUsers(deps: UserDeps, accountId: string, accountName: string, invitees: readonly Invitee[]): Promise<Member[]> {
  const emails = new Set<string>();
  for (const invitee of invitees) {
    if (emails.has(invitee.email)) throw new EsignError('INVALID_REQUEST_BODY', `newUsers names ${invitee.email} twice.`);
    emails.add(invitee.email);
    if (invitee.profileId !== undefined) await getProfile(deps.profiles, accountId, invitee.profileId);
    await checkGroups(deps.groups, accountId, invitee.groupIds);
  }
  const at = deps.clock();
  const result = await deps.members.invite(accountId, invitees.map((invitee) => {
    const { token, hash } = deps.newToken();
    return { ...invitee, tokenHash: hash, mail: () => deps.invitationMail({ to: { email: invitee.email, name: invitee.name }, accountName, token, validHours: INVITATION_LINK_HOURS }) };
  }), at, new Date(at.getTime() + INVITATION_LINK_HOURS * 3_600_000));
  if ('already' in result) throw new EsignError('USER_ALREADY_EXISTS_IN_ACCOUNT', `${result.already} is already an active or invited user of the account.`);
  return result.members;
}

/**
 * UsersApi.updateUser: a member may rename themselves (the API guard lets them reach their own
 * user); the permission profile is changed only by a member allowed to manage the account, so
 * nobody raises their own rights.
 */
export async function updateUser(deps: UserDeps, accountId: string, actor: Rights, userId: string, patch: { name?: string | undefined; profileId?: string | undefined }): Promise<Member> {
  const member = await getUser(deps.members, accountId, userId);
  if (member.status === 'closed') throw new EsignError('INVALID_USERID', `"${userId}" was removed from the account.`);
  if (patch.profileId !== undefined) {
    if (!actor.manageAccount) throw new EsignError('USER_LACKS_PERMISSIONS', 'Only a user allowed to manage the account (allowAccountManagement) may change a permission profile.');
    await getProfile(deps.profiles, accountId, patch.profileId);
  }
  await deps.members.updateMember(accountId, userId, patch);
  return getUser(deps.members, accountId, userId);
}

/** UsersApi._delete: closes the memberships; the users' tokens stop working for this account at once. */
export async function closeUsers(deps: UserDeps, accountId: string, userIds: readonly string[]): Promise<Member[]> {
  for (const id of userIds) {
    const member = await getUser(deps.members, accountId, id);
    if (member.status === 'closed') throw new EsignError('INVALID_USERID', `"${id}" was already removed from the account.`);
  }
  await deps.members.closeMembers(accountId, userIds, deps.clock());
  return Promise.all(userIds.map((id) => getUser(deps.members, accountId, id)));
}
