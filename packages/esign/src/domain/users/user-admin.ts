import type { DefaultProfileKind, RoleSettings } from './role-settings.ts';

/** A permission profile of an account (DocuSign's PermissionProfile). */
export type Profile = {
  readonly id: string;
  readonly name: string;
  /** One of the three defaults every account has, else null. */
  readonly kind: DefaultProfileKind | null;
  readonly settings: RoleSettings;
  readonly modifiedAt: string;
  readonly modifiedBy: string | null;
  readonly userCount: number;
};

export type MemberStatus = 'active' | 'pending' | 'closed';

/** A user as a member of one account (DocuSign's UserInformation). */
export type Member = {
  readonly userId: string;
  readonly email: string;
  readonly name: string;
  readonly status: MemberStatus;
  readonly profileId: string | null;
  readonly profileName: string | null;
  readonly addedAt: string;
  readonly userCreatedAt: string;
  readonly groups: readonly { readonly id: string; readonly name: string }[];
};

/** A group of an account's users (DocuSign's Group). */
export type Group = {
  readonly id: string;
  readonly name: string;
  readonly profileId: string | null;
  readonly modifiedAt: string;
  readonly userCount: number;
};

/** A new user of an account as createUsers names them. */
export type Invitee = {
  readonly email: string; readonly name: string; readonly profileId?: string | undefined; readonly groupIds: readonly string[];
  /** UsersApi.create's activationAccessCode: the invited user types it to activate (only its hash is kept). */
  readonly activationCode?: string | undefined;
};

/** The parts of a permission profile a create or update names; settings are merged over the stored ones. */
export type ProfileDraft = { readonly name?: string | undefined; readonly settings: RoleSettings };

/** The parts of a group a create or update names. */
export type GroupDraft = { readonly id?: string | undefined; readonly name?: string | undefined; readonly profileId?: string | undefined };
