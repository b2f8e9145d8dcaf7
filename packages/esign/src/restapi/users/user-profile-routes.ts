import type { FastifyInstance } from 'fastify';
import { getUser, updateUser, type UserDeps } from '../../domain/users/user-use-cases.ts';
import { toWireUserProfile, toWireUserSettings } from '../../wire/to-wire-users.ts';
import { parseUserProfileUpdate } from './parse-user-profile.ts';
import { readQuery, type RawQuery } from './query.ts';
import { actorOf } from './user-routes.ts';

type Params = { accountId: string; userId: string };
const USER = '/restapi/v2.1/accounts/:accountId/users/:userId';

/**
 * UsersApi.getProfile, updateProfile and getSettings over what a user is here: a name, an e-mail
 * and a permission profile (docs/esign-users.md). A member reads and renames themselves; other
 * users are the administrators' (domain/users/route-permission.ts). updateSettings is refused by
 * name (restapi/not-supported-operations.ts): a user's settings are their profile's.
 */
export function registerUserProfileRoutes(app: FastifyInstance, deps: UserDeps): void {
  app.get<{ Params: Params; Querystring: RawQuery }>(`${USER}/profile`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId } = request.params;
    return toWireUserProfile(await getUser(deps.members, accountId, userId), await deps.profiles.listProfiles(accountId));
  });

  // DocuSign answers updateProfile with an empty body (the SDK's returnType is null).
  app.put<{ Params: Params; Querystring: RawQuery }>(`${USER}/profile`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId } = request.params;
    await updateUser(deps, accountId, actorOf(request), userId, parseUserProfileUpdate(request.body));
    return {};
  });

  app.get<{ Params: Params; Querystring: RawQuery }>(`${USER}/settings`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId } = request.params;
    return toWireUserSettings(await getUser(deps.members, accountId, userId), await deps.profiles.listProfiles(accountId));
  });
}
