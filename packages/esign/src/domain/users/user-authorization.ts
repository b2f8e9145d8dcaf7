import type { Rights } from './role-settings.ts';

/**
 * The levels of shared access DocuSign lists for a user authorization (AccountsApi
 * createUserAuthorization, model UserAuthorizationCreateRequest `permission`): `manage`, `send`,
 * `edit`, `sign`. The first two are honoured here; the others are refused by name.
 */
export const HONOURED_PERMISSIONS = ['manage', 'send'] as const;
export type AuthorizationPermission = (typeof HONOURED_PERMISSIONS)[number];
export const REFUSED_PERMISSIONS: Readonly<Record<string, string>> = {
  edit: 'editing on behalf of another user is not supported; grant manage',
  sign: 'delegated signing is not supported',
};

/** One user (the agent) allowed to act for another (the principal) in one account (DocuSign's UserAuthorization). */
export type UserAuthorization = {
  readonly authorizationId: string;
  readonly accountId: string;
  readonly principalUserId: string;
  readonly agentUserId: string;
  readonly permission: AuthorizationPermission;
  readonly startDate: Date;
  /** Absent: open-ended. The authorization ends at this instant. */
  readonly endDate?: Date | undefined;
  readonly created: Date;
  readonly createdBy: string;
  readonly modified: Date;
  readonly modifiedBy: string;
};

/** A user as an authorization names them (DocuSign's AuthorizationUser). */
export type AuthorizationParty = { readonly userId: string; readonly name: string; readonly email: string };
export type UserAuthorizationView = UserAuthorization & { readonly principal: AuthorizationParty; readonly agent: AuthorizationParty };

/** Live at `now`: started and not yet ended (a deleted authorization no longer exists). */
export function isLive(a: Pick<UserAuthorization, 'startDate' | 'endDate'>, now: Date): boolean {
  return a.startDate.getTime() <= now.getTime() && (a.endDate === undefined || now.getTime() < a.endDate.getTime());
}

/**
 * Which /restapi routes an agent reaches as the principal (X-DocuSign-Act-On-Behalf), by the
 * permission granted: `manage` the principal's envelopes (read, create, send, correct, void),
 * their folders and recipient views of them (not the console's sender, edit and correct views); `send` only creating (and so sending) envelopes as them.
 * Everything else — users, authorizations, profiles, settings, brands, Connect, templates — is
 * never reached through the header, so a grant cannot be stretched into the principal's
 * administration. `route` is the pattern after `/restapi/v2.1/accounts/:accountId`.
 */
export function onBehalfAllows(permission: AuthorizationPermission, method: string, route: string): boolean {
  const area = route.split('/')[1] ?? '';
  if (permission === 'send') return method === 'POST' && route === '/envelopes';
  // A sender, edit or correct view signs whoever opens it into the console as the view's user:
  // made on behalf, that would be the principal's whole console (apps, secrets, consent to any
  // app), a way out of the grant into the principal's administration. The recipient view opens
  // a signing session only, and stays.
  if (ACCOUNT_VIEW_ROUTE.test(route)) return false;
  return area === 'envelopes' || area === 'folders' || area === 'search_folders';
}

const ACCOUNT_VIEW_ROUTE = /^\/envelopes\/:envelopeId\/views\/(?:sender|edit|correct)$/;

/**
 * The console's views, which no grant reaches: DocuSign answers ACT_ON_BEHALF_USER_NOT_ALLOWED
 * to createSenderView under the header (its community forum, "Attempting to create a sender view
 * using shared access fails").
 */
export function isConsoleView(route: string): boolean {
  return ACCOUNT_VIEW_ROUTE.test(route) || route === '/views/console';
}

/**
 * Who may see or change the authorizations of a principal (DocuSign: "You must be an account
 * administrator or you must be the principal user"): a member allowed to manage the account, or
 * the principal themself.
 */
export function mayAdminister(actor: { readonly userId: string; readonly rights: Rights }, principalUserId: string): boolean {
  return actor.rights.manageAccount || actor.userId === principalUserId;
}
