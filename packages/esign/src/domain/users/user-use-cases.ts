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
  /** A slow salted hash of an activation code (security/password-hash.ts), so a stolen table does not give the codes away. */
  readonly hashActivationCode: (code: string) => Promise<string>;
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
  const codeHashes = await Promise.all(invitees.map((invitee) => (invitee.activationCode === undefined ? Promise.resolve(undefined) : deps.hashActivationCode(invitee.activationCode))));
  const at = deps.clock();
  const result = await deps.members.invite(accountId, invitees.map((invitee, i) => {
    const { token, hash } = deps.newToken();
    return { ...invitee, tokenHash: hash, activationCodeHash: codeHashes[i], mail: () => deps.invitationMail({ to: { email: invitee.email, name: invitee.name }, accountName, token, validHours: INVITATION_LINK_HOURS }) };
  }), at, new Date(at.getTime() + INVITATION_LINK_HOURS * 3_600_000));
  if ('already' in result) throw new EsignError('USER_ALREADY_EXISTS_IN_ACCOUNT', `${result.already} is already an active or invited user of the account.`);
  return result.members;
}

/**
 * UsersApi.updateUser: a member may rename themselves (the API guard lets them reach their own
 * user); the permission profile is changed only by a member allowed to manage the account, so
 * nobody raises their own rights.
 */
/** Who asks for a change: the token's user and what their profile allows in the account. */
export type Actor = { readonly userId: string; readonly rights: Rights };

/**
 * What updateUser checks before a change: the user is a member still; a permission profile is
 * changed only by a member allowed to manage the account, and to one of the account's. A user's
 * name is theirs across every account they belong to, so another member renames them only while
 * this account is the only one they belong to: an administrator cannot rename a member of
 * someone else's account by inviting their address.
 */
async function checkUpdate(deps: UserDeps, accountId: string, actor: Actor, userId: string, patch: UserPatch): Promise<void> {
  const member = await getUser(deps.members, accountId, userId);
  if (member.status === 'closed') throw new EsignError('INVALID_USERID', `"${userId}" was removed from the account.`);
  if (patch.profileId !== undefined) {
    if (!actor.rights.manageAccount) throw new EsignError('USER_LACKS_PERMISSIONS', 'Only a user allowed to manage the account (allowAccountManagement) may change a permission profile.');
    await getProfile(deps.profiles, accountId, patch.profileId);
  }
  if (patch.name !== undefined && patch.name !== member.name && userId !== actor.userId && (await deps.members.belongsElsewhere(accountId, userId))) {
    throw new EsignError('USER_LACKS_PERMISSIONS', `"${userId}" also belongs to another account: only they may change their name.`);
  }
}

type UserPatch = { name?: string | undefined; profileId?: string | undefined };

export async function updateUser(deps: UserDeps, accountId: string, actor: Actor, userId: string, patch: UserPatch): Promise<Member> {
  await checkUpdate(deps, accountId, actor, userId, patch);
  await deps.members.updateMembers(accountId, [{ userId, ...patch }]);
  return getUser(deps.members, accountId, userId);
}

/** UsersApi.updateUsers: each user checked as updateUser checks one, then all changed in one transaction, or none. */
export async function updateUsers(deps: UserDeps, accountId: string, actor: Actor, patches: readonly (UserPatch & { userId: string })[]): Promise<Member[]> {
  for (const { userId, ...patch } of patches) await checkUpdate(deps, accountId, actor, userId, patch);
  await deps.members.updateMembers(accountId, patches);
  return Promise.all(patches.map((p) => getUser(deps.members, accountId, p.userId)));
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
