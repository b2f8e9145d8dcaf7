import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { EsignError } from '../errors.ts';
import { accountInformation } from './account-information.ts';
import { accountIdentityVerification } from './identity-verification.ts';
import { getAccountSettings } from '../domain/account/account-settings-use-cases.ts';
import { AccountSettingsRepository } from '../store/account-settings-repository.ts';
import { toWireAccountSettings } from '../wire/to-wire-account-settings.ts';
import { toWireSupportedLanguages } from '../wire/to-wire-supported-languages.ts';

type AccountParams = { Params: { accountId: string } };

/**
 * The account routes of the DocuSign REST surface (getAccountInformation, getSupportedLanguages,
 * getAccountIdentityVerification). Like every /restapi route it sits behind the
 * API guard (restapi/api-guard.ts), which has checked the token, its scope and membership.
 */
export function registerRestApi(app: FastifyInstance, ctx: EsignContext): void {
  const settings = new AccountSettingsRepository(ctx.store.db);
  // include_account_settings adds the settings listSettings answers (docs/esign-account-settings.md).
  app.get<AccountParams & { Querystring: { include_account_settings?: string } }>('/restapi/v2.1/accounts/:accountId', async (request) => {
    const account = await ctx.store.accounts.findAccount(request.params.accountId);
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    const withSettings = String(request.query.include_account_settings ?? '').toLowerCase() === 'true';
    return { ...accountInformation(account), ...(withSettings ? { accountSettings: toWireAccountSettings(await getAccountSettings(settings, account.id)) } : {}) };
  });
  // The languages recipients read in (domain/language/languages.ts), the same for every account.
  app.get<AccountParams>('/restapi/v2.1/accounts/:accountId/supported_languages', () => toWireSupportedLanguages());
  // The one-time passcode workflows a signer's identityVerification may name (domain/signing/identity-workflows.ts).
  app.get<AccountParams & { Querystring: { identity_verification_workflow_status?: string } }>('/restapi/v2.1/accounts/:accountId/identity_verification', async (request) => {
    const account = await ctx.store.accounts.findAccount(request.params.accountId);
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    return accountIdentityVerification(request.query.identity_verification_workflow_status);
  });
}

export { installApiGuard } from './api-guard.ts';
export { authenticateBearer, assertAccountMember } from './bearer-auth.ts';
