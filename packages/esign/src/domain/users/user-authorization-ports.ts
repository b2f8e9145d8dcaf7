import type { AuthorizationParty, UserAuthorization, UserAuthorizationView } from './user-authorization.ts';

/** A filter of an authorization listing (AccountsApi getPrincipalUserAuthorizations / getAgentUserAuthorizations). */
export type AuthorizationFilter = {
  /** Whose authorizations: as principal or as agent. */
  readonly side: 'principal' | 'agent';
  readonly userId: string;
  readonly permissions?: readonly string[] | undefined;
  /** Only live ones at this instant (active_only). */
  readonly liveAt?: Date | undefined;
  /** Only those whose other party's e-mail or name contains this (email_substring, user_name_substring). */
  readonly emailSubstring?: string | undefined;
  readonly nameSubstring?: string | undefined;
  /** Only those this user is the principal or the agent of (a caller who does not manage the account). */
  readonly involving?: string | undefined;
};

/** The account's user authorizations (store/user-authorizations-repository.ts). */
export interface UserAuthorizationStore {
  /** An account member (active or pending) by id; closed members and strangers are undefined. */
  party(accountId: string, userId: string): Promise<AuthorizationParty | undefined>;
  find(accountId: string, authorizationId: string): Promise<UserAuthorizationView | undefined>;
  list(accountId: string, filter: AuthorizationFilter): Promise<UserAuthorizationView[]>;
  insert(a: UserAuthorization): Promise<void>;
  update(accountId: string, authorizationId: string, patch: { readonly startDate: Date; readonly endDate: Date | undefined; readonly modified: Date; readonly modifiedBy: string }): Promise<void>;
  delete(accountId: string, authorizationIds: readonly string[]): Promise<void>;
  /** The live authorization letting the agent act for the principal in the account at `now`, of the highest permission. */
  liveFor(accountId: string, principalUserId: string, agentUserId: string, now: Date): Promise<UserAuthorization[]>;
}
