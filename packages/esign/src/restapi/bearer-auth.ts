import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { EsignContext } from '../context.ts';
import { EsignError } from '../errors.ts';
import { resolveAccessToken, type Principal } from '../oauth/access-token.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the bearer preHandler on /restapi routes. */
    principal: Principal | null;
  }
}

/**
 * The preHandler every /restapi route uses: a live `Authorization: Bearer` access token, else
 * 401 in DocuSign's words (compat/esign-wire.md §6.3: USER_AUTHENTICATION_FAILED when there is
 * no token, AUTHORIZATION_INVALID_TOKEN when it is expired, revoked or unknown).
 */
export function bearerAuth(ctx: EsignContext): preHandlerAsyncHookHandler {
  return async function bearerAuthPreHandler(request: FastifyRequest, _reply: FastifyReply) {
    const principal = await resolveAccessToken(ctx, request.headers.authorization);
    if (principal === 'missing') throw new EsignError('USER_AUTHENTICATION_FAILED', 'Invalid access token.');
    if (principal === 'invalid') throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
    request.principal = principal;
  };
}

/**
 * For routes under /accounts/{accountId}: the token's user must belong to that account
 * (DocuSign answers USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT). Runs after bearerAuth.
 */
export function accountAccess(ctx: EsignContext): preHandlerAsyncHookHandler {
  return async function accountAccessPreHandler(request: FastifyRequest, _reply: FastifyReply) {
    const accountId = (request.params as { accountId?: string }).accountId;
    const principal = request.principal;
    if (!principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
    if (accountId === undefined || accountId.length > 100 || !(await ctx.store.accounts.isMember(principal.userId, accountId))) {
      throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    }
  };
}
