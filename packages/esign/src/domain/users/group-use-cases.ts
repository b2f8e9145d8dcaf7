import { EsignError } from '../../errors.ts';
import { getProfile } from './profile-use-cases.ts';
import { getUser } from './user-use-cases.ts';
import type { GroupStore, MemberStore, ProfileStore } from './user-admin-ports.ts';
import type { Group, GroupDraft, Member } from './user-admin.ts';

export type GroupDeps = { readonly groups: GroupStore; readonly members: MemberStore; readonly profiles: ProfileStore; readonly clock: () => Date; readonly uuid: () => string };

export async function getGroup(groups: GroupStore, accountId: string, groupId: string): Promise<Group> {
  const group = groupId.length <= 100 ? await groups.findGroup(accountId, groupId) : undefined;
  if (!group) throw new EsignError('INVALID_GROUP_ID', `"${groupId}" is not a group of the account.`);
  return group;
}

/**
 * GroupsApi.createGroups (drafts without an id) and updateGroups (with one): every group and
 * profile named must be the account's; all are saved or none. A group's profile is given to its
 * members, now and as they join.
 */
export async function saveGroups(deps: GroupDeps, accountId: string, drafts: readonly GroupDraft[], creating: boolean): Promise<Group[]> {
  for (const d of drafts) {
    if (creating && d.name === undefined) throw new EsignError('INVALID_REQUEST_BODY', 'groupName is required for each new group.');
    if (!creating) {
      if (d.id === undefined) throw new EsignError('INVALID_REQUEST_BODY', 'groupId is required for each group to update.');
      await getGroup(deps.groups, accountId, d.id);
    }
    if (d.profileId !== undefined) await getProfile(deps.profiles, accountId, d.profileId);
  }
  return deps.groups.saveGroups(accountId, creating ? drafts.map((d) => ({ ...d, id: undefined })) : drafts, deps.clock(), deps.uuid);
}

export async function deleteGroups(deps: GroupDeps, accountId: string, groupIds: readonly string[]): Promise<Group[]> {
  const groups = await Promise.all(groupIds.map((id) => getGroup(deps.groups, accountId, id)));
  await deps.groups.deleteGroups(accountId, groupIds);
  return groups;
}

export async function groupUsers(deps: GroupDeps, accountId: string, groupId: string): Promise<Member[]> {
  await getGroup(deps.groups, accountId, groupId);
  return deps.groups.groupMembers(accountId, groupId);
}

/** GroupsApi.updateGroupUsers: the users must be the account's (not removed ones). */
export async function addGroupUsers(deps: GroupDeps, accountId: string, groupId: string, userIds: readonly string[]): Promise<Member[]> {
  await getGroup(deps.groups, accountId, groupId);
  for (const id of userIds) {
    if ((await getUser(deps.members, accountId, id)).status === 'closed') throw new EsignError('INVALID_USERID', `"${id}" was removed from the account.`);
  }
  await deps.groups.addGroupMembers(accountId, groupId, userIds, deps.clock());
  return deps.groups.groupMembers(accountId, groupId);
}

export async function removeGroupUsers(deps: GroupDeps, accountId: string, groupId: string, userIds: readonly string[]): Promise<Member[]> {
  await getGroup(deps.groups, accountId, groupId);
  for (const id of userIds) await getUser(deps.members, accountId, id);
  await deps.groups.removeGroupMembers(accountId, groupId, userIds);
  return deps.groups.groupMembers(accountId, groupId);
}
