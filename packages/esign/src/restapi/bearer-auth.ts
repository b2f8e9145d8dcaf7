import type { EsignContext } from '../context.ts';
import { allowsESignature } from '../domain/scopes.ts';
import { EsignError } from '../errors.ts';
import { resolveAccessToken, type Principal } from '../oauth/access-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the API guard (restapi/api-guard.ts) on every /restapi request it lets through. */
    principal: Principal | null;
  }
}

/**
 * A live `Authorization: Bearer` access token that was granted the `signature` scope, else 401
 * in DocuSign's words (DocuSign "Error codes" reference: USER_AUTHENTICATION_FAILED when there is no
 * token, AUTHORIZATION_INVALID_TOKEN when it is expired, revoked, unknown or — as DocuSign
 * answers a token its eSignature API does not accept — lacks the scope).
 */
export async function authenticateBearer(ctx: EsignContext, authorization: string | undefined): Promise<Principal> {
  const principal = await resolveAccessToken(ctx, authorization);
  if (principal === 'missing') throw new EsignError('USER_AUTHENTICATION_FAILED', 'Invalid access token.');
  if (principal === 'invalid') throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  if (!allowsESignature(principal.scopes)) {
    throw new EsignError('AUTHORIZATION_INVALID_TOKEN', 'The token was not granted the signature scope, which the eSignature API requires.');
  }
  return principal;
}

/**
 * For routes under /accounts/{accountId}: the token's user must belong to that account
 * (DocuSign answers USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT).
 */
export async function assertAccountMember(ctx: EsignContext, principal: Principal, accountId: string): Promise<void> {
  if (accountId.length > 100 || !(await ctx.store.accounts.isMember(principal.userId, accountId))) {
    throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  }
}
