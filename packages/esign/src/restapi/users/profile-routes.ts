import type { FastifyInstance } from 'fastify';
import { createProfile, deleteProfile, getProfile, updateProfile } from '../../domain/users/profile-use-cases.ts';
import type { ProfileStore } from '../../domain/users/user-admin-ports.ts';
import { toWireProfile } from '../../wire/to-wire-users.ts';
import { parseProfile } from './parse-user-admin.ts';
import { profileInclude, readQuery, type RawQuery } from './query.ts';

type Params = { accountId: string; permissionProfileId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/permission_profiles';

/**
 * AccountsApi's permission profile calls (docs/esign-users.md): listPermissions,
 * getPermissionProfile, createPermissionProfile, updatePermissionProfile, deletePermissionProfile.
 * Behind the API guard, which lets only members allowed to manage the account write.
 */
export function registerProfileRoutes(app: FastifyInstance, deps: { profiles: ProfileStore; clock: () => Date }): void {
  app.get<{ Params: { accountId: string }; Querystring: RawQuery }>(BASE, async (request) => {
    profileInclude(readQuery(request.query, ['include']));
    return { permissionProfiles: (await deps.profiles.listProfiles(request.params.accountId)).map(toWireProfile) };
  });

  app.post<{ Params: { accountId: string }; Querystring: RawQuery }>(BASE, async (request, reply) => {
    profileInclude(readQuery(request.query, ['include']));
    const profile = await createProfile(deps.profiles, request.params.accountId, parseProfile(request.body), request.principal?.userId ?? '', deps.clock());
    return reply.code(201).send(toWireProfile(profile));
  });

  app.get<{ Params: Params; Querystring: RawQuery }>(`${BASE}/:permissionProfileId`, async (request) => {
    profileInclude(readQuery(request.query, ['include']));
    return toWireProfile(await getProfile(deps.profiles, request.params.accountId, request.params.permissionProfileId));
  });

  app.put<{ Params: Params; Querystring: RawQuery }>(`${BASE}/:permissionProfileId`, async (request) => {
    profileInclude(readQuery(request.query, ['include']));
    const { accountId, permissionProfileId } = request.params;
    return toWireProfile(await updateProfile(deps.profiles, accountId, permissionProfileId, parseProfile(request.body), request.principal?.userId ?? '', deps.clock()));
  });

  app.delete<{ Params: Params; Querystring: RawQuery }>(`${BASE}/:permissionProfileId`, async (request) => {
    const q = readQuery(request.query, ['move_users_to']);
    await deleteProfile(deps.profiles, request.params.accountId, request.params.permissionProfileId, q.move_users_to);
    return {};
  });
}
