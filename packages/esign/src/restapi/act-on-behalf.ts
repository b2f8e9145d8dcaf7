import type { EsignContext } from '../context.ts';
import { isConsoleView, onBehalfAllows } from '../domain/users/user-authorization.ts';
import { EsignError } from '../errors.ts';
import type { UserAuthorizationsRepository } from '../store/user-authorizations-repository.ts';

/** DocuSign's shared-access header: the principal user's id, whom the caller (the agent) acts as. */
export const ACT_ON_BEHALF_HEADER = 'x-docusign-act-on-behalf';

/** An honoured X-DocuSign-Act-On-Behalf: who acts, as whom, under which authorization. */
export type OnBehalf = { readonly agentUserId: string; readonly principalUserId: string; readonly authorizationId: string };

// One answer for every refusal, whatever the reason (no such user, another account's user, no
// authorization, an expired or deleted one): the header must not tell a prober which users exist.
const NOT_AUTHORIZED = 'X-DocuSign-Act-On-Behalf names a user who has not authorized this user to act on their behalf for this call.';

/** The header's single value; undefined when absent or blank. Repeating it is refused, never resolved by picking one. */
export function onBehalfHeader(value: string | string[] | undefined): string | undefined {
  if (Array.isArray(value)) throw new EsignError('USER_LACKS_PERMISSIONS', 'X-DocuSign-Act-On-Behalf is given more than once.');
  const text = value?.trim();
  return text === undefined || text === '' ? undefined : text;
}

/**
 * Resolves X-DocuSign-Act-On-Behalf on a /restapi call in an account: honoured only when the
 * caller (the agent, an active member) holds a live authorization from the principal (an active
 * member of the same account) whose permission covers the route (domain/users/user-authorization.ts);
 * otherwise USER_LACKS_PERMISSIONS, before the body is read. `route` is the pattern after the
 * account (undefined for an unknown route, which no authorization covers).
 */
export async function resolveOnBehalf(ctx: EsignContext, authorizations: UserAuthorizationsRepository, input: {
  readonly accountId: string; readonly agentUserId: string; readonly principalUserId: string; readonly method: string; readonly route: string | undefined;
}): Promise<{ onBehalf: OnBehalf; principalSettings: Record<string, string> }> {
  const { accountId, agentUserId, principalUserId, method, route } = input;
  if (principalUserId.length > 100 || route === undefined) throw new EsignError('USER_LACKS_PERMISSIONS', NOT_AUTHORIZED);
  // Whoever the header names: a console view would sign its opener in as them.
  if (isConsoleView(route)) throw new EsignError('ACT_ON_BEHALF_USER_NOT_ALLOWED', 'A sender, edit, correct or console view signs whoever opens it into the console as its user; it is never made on behalf of another.');
  const live = await authorizations.liveFor(accountId, principalUserId, agentUserId, ctx.now());
  const covering = live.find((a) => onBehalfAllows(a.permission, method, route));
  // A closed principal's grants end with their membership, as their own tokens do.
  const principalSettings = covering ? await ctx.store.accounts.memberSettings(principalUserId, accountId) : undefined;
  if (!covering || principalSettings === undefined) throw new EsignError('USER_LACKS_PERMISSIONS', NOT_AUTHORIZED);
  return { onBehalf: { agentUserId, principalUserId, authorizationId: covering.authorizationId }, principalSettings };
}
