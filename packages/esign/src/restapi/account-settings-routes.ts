import type { FastifyInstance } from 'fastify';
import type { AccountSettingsStore } from '../domain/account/account-settings-ports.ts';
import { getAccountSettings, updateAccountSettings } from '../domain/account/account-settings-use-cases.ts';
import { EsignError } from '../errors.ts';
import { parseAccountSettings } from '../wire/parse-account-settings.ts';
import { toWireAccountSettings } from '../wire/to-wire-account-settings.ts';

type AccountParams = { Params: { accountId: string } };

const PATH = '/restapi/v2.1/accounts/:accountId/settings';

/**
 * AccountsApi.listSettings (GET) and updateSettings (PUT) on the SDK's path. Behind the API
 * guard (token with the signature scope, membership of this account: another account's id is
 * USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT); an update also needs the account's administrator.
 * DocuSign answers an update with an empty body.
 */
export function registerAccountSettingsRoutes(app: FastifyInstance, deps: { settings: AccountSettingsStore; clock: () => Date }): void {
  app.get<AccountParams>(PATH, async (request) => toWireAccountSettings(await getAccountSettings(deps.settings, request.params.accountId)));

  app.put<AccountParams>(PATH, async (request) => {
    const principal = request.principal;
    if (!principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
    // Read in full before anything is written: a refused setting leaves every setting as it was.
    const patch = parseAccountSettings(request.body);
    await updateAccountSettings(deps.settings, { userId: principal.userId, accountId: request.params.accountId, patch, now: deps.clock() });
    return {};
  });
}
