import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { EsignError } from '../errors.ts';
import { accountInformation } from './account-information.ts';
import { accountIdentityVerification } from './identity-verification.ts';

type AccountParams = { Params: { accountId: string } };

/**
 * The account route of the DocuSign REST surface. Like every /restapi route it sits behind the
 * API guard (restapi/api-guard.ts), which has checked the token, its scope and membership.
 */
export function registerRestApi(app: FastifyInstance, ctx: EsignContext): void {
  app.get<AccountParams>('/restapi/v2.1/accounts/:accountId', async (request) => {
    const account = await ctx.store.accounts.findAccount(request.params.accountId);
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    return accountInformation(account);
  });
  // The one-time passcode workflows a signer's identityVerification may name (domain/signing/identity-workflows.ts).
  app.get<AccountParams & { Querystring: { identity_verification_workflow_status?: string } }>('/restapi/v2.1/accounts/:accountId/identity_verification', async (request) => {
    const account = await ctx.store.accounts.findAccount(request.params.accountId);
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    return accountIdentityVerification(request.query.identity_verification_workflow_status);
  });
}

export { installApiGuard } from './api-guard.ts';
export { authenticateBearer, assertAccountMember } from './bearer-auth.ts';
