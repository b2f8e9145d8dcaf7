import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { EsignError } from '../errors.ts';
import { accountInformation } from './account-information.ts';
import { accountAccess, bearerAuth } from './bearer-auth.ts';

type AccountParams = { Params: { accountId: string } };

/**
 * The DocuSign REST surface under /restapi/v2.1. Every route sits behind bearerAuth; routes
 * under /accounts/{accountId} also behind accountAccess. Envelopes come in a later issue and
 * register here the same way.
 */
export function registerRestApi(app: FastifyInstance, ctx: EsignContext): void {
  app.decorateRequest('principal', null);
  const authenticated = bearerAuth(ctx);
  const member = accountAccess(ctx);

  app.get<AccountParams>('/restapi/v2.1/accounts/:accountId', { preHandler: [authenticated, member] }, async (request) => {
    const account = await ctx.store.accounts.findAccount(request.params.accountId);
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    return accountInformation(account);
  });
}

export { bearerAuth, accountAccess } from './bearer-auth.ts';
