import type { MailMessage } from '../mail/mail-message.ts';
import type { Group, GroupDraft, Invitee, Member, MemberStatus, Profile, ProfileDraft } from './user-admin.ts';

/**
 * Users, groups and permission profiles of accounts (store/*-repository.ts). Every call names
 * the account; a write that would leave an account without an active member allowed to manage
 * it is refused whole (store/admin-remains.ts).
 */
export interface ProfileStore {
  listProfiles(accountId: string): Promise<Profile[]>;
  findProfile(accountId: string, profileId: string): Promise<Profile | undefined>;
  insertProfile(accountId: string, draft: Required<ProfileDraft>, by: string, at: Date): Promise<Profile>;
  updateProfile(accountId: string, profileId: string, draft: ProfileDraft, by: string, at: Date): Promise<Profile>;
  /** Moves the profile's users (and groups) to `moveTo` when given; `in-use` when it still has some. */
  deleteProfile(accountId: string, profileId: string, moveTo: string | undefined): Promise<'deleted' | 'in-use'>;
}

export type MemberFilter = { readonly status?: MemberStatus | undefined; readonly email?: string | undefined; readonly emailSubstring?: string | undefined; readonly groupId?: string | undefined };

export interface MemberStore {
  listMembers(accountId: string, filter: MemberFilter): Promise<Member[]>;
  findMember(accountId: string, userId: string): Promise<Member | undefined>;
  /**
   * Adds the invitees as pending members in one transaction, each with a single-use link
   * (`tokenHash`) and its mail queued in the outbox; an e-mail without a user gets a user
   * with no password yet. `already` names an address that is already an active or pending member.
   */
  invite(accountId: string, invitees: readonly (Invitee & { readonly tokenHash: string; readonly activationCodeHash?: string | undefined; readonly mail: (userId: string) => MailMessage })[], at: Date, expiresAt: Date): Promise<{ members: Member[] } | { already: string }>;
  /** Renames users and changes their profiles in one transaction. */
  updateMembers(accountId: string, patches: readonly { readonly userId: string; readonly name?: string | undefined; readonly profileId?: string | undefined }[]): Promise<void>;
  /** Whether the user has a membership (of any status) in an account other than this one. */
  belongsElsewhere(accountId: string, userId: string): Promise<boolean>;
  /** Closes the memberships, takes the users out of the account's groups, retires their links. */
  closeMembers(accountId: string, userIds: readonly string[], at: Date): Promise<void>;
}

export interface GroupStore {
  listGroups(accountId: string): Promise<Group[]>;
  findGroup(accountId: string, groupId: string): Promise<Group | undefined>;
  /** Creates and updates in one transaction; a group's profile is given to its members. */
  saveGroups(accountId: string, drafts: readonly GroupDraft[], at: Date, newId: () => string): Promise<Group[]>;
  deleteGroups(accountId: string, groupIds: readonly string[]): Promise<void>;
  groupMembers(accountId: string, groupId: string): Promise<Member[]>;
  /** Adds active members; a group's profile is given to them. */
  addGroupMembers(accountId: string, groupId: string, userIds: readonly string[], at: Date): Promise<void>;
  removeGroupMembers(accountId: string, groupId: string, userIds: readonly string[]): Promise<void>;
}
