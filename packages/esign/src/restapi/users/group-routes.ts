import type { FastifyInstance } from 'fastify';
import { addGroupUsers, deleteGroups, groupUsers, removeGroupUsers, saveGroups, type GroupDeps } from '../../domain/users/group-use-cases.ts';
import { EsignError } from '../../errors.ts';
import { page, toWireGroup, toWireUserInfo } from '../../wire/to-wire-users.ts';
import { parseGroups, parseUserIds } from './parse-user-admin.ts';
import { paging, readQuery, type RawQuery } from './query.ts';

type Params = { accountId: string; groupId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/groups';

/**
 * GroupsApi's calls (docs/esign-users.md): listGroups, createGroups, updateGroups, deleteGroups,
 * listGroupUsers, updateGroupUsers, deleteGroupUsers. Group brands are refused by name.
 */
export function registerGroupRoutes(app: FastifyInstance, deps: GroupDeps): void {
  app.get<{ Params: { accountId: string }; Querystring: RawQuery }>(BASE, async (request) => {
    const q = readQuery(request.query, ['count', 'start_position', 'group_type']);
    if (q.group_type !== undefined && q.group_type.toLowerCase() !== 'customgroup') throw new EsignError('INVALID_REQUEST_PARAMETER', `group_type: only customGroup groups exist here, got "${q.group_type}".`);
    const { start, count } = paging(q);
    return page('groups', await deps.groups.listGroups(request.params.accountId), start, count, toWireGroup);
  });

  app.post<{ Params: { accountId: string } }>(BASE, async (request, reply) => {
    const groups = await saveGroups(deps, request.params.accountId, parseGroups(request.body), true);
    return reply.code(201).send({ groups: groups.map(toWireGroup) });
  });

  app.put<{ Params: { accountId: string } }>(BASE, async (request) => {
    const groups = await saveGroups(deps, request.params.accountId, parseGroups(request.body), false);
    return { groups: groups.map(toWireGroup) };
  });

  app.delete<{ Params: { accountId: string } }>(BASE, async (request) => {
    const drafts = parseGroups(request.body);
    const ids = drafts.map((d) => d.id ?? (() => { throw new EsignError('INVALID_REQUEST_BODY', 'groupId is required for each group to delete.'); })());
    return { groups: (await deleteGroups(deps, request.params.accountId, ids)).map(toWireGroup) };
  });

  app.get<{ Params: Params; Querystring: RawQuery }>(`${BASE}/:groupId/users`, async (request) => {
    const { start, count } = paging(readQuery(request.query, ['count', 'start_position']));
    return page('users', await groupUsers(deps, request.params.accountId, request.params.groupId), start, count, toWireUserInfo);
  });

  app.put<{ Params: Params }>(`${BASE}/:groupId/users`, async (request) => {
    const users = await addGroupUsers(deps, request.params.accountId, request.params.groupId, parseUserIds(request.body));
    return page('users', users, 0, users.length || 1, toWireUserInfo);
  });

  app.delete<{ Params: Params }>(`${BASE}/:groupId/users`, async (request) => {
    const users = await removeGroupUsers(deps, request.params.accountId, request.params.groupId, parseUserIds(request.body));
    return page('users', users, 0, users.length || 1, toWireUserInfo);
  });

  for (const method of ['GET', 'PUT', 'DELETE'] as const) {
    app.route<{ Params: Params }>({ method, url: `${BASE}/:groupId/brands`, handler: () => {
      throw new EsignError('INVALID_REQUEST_PARAMETER', 'group brands are not supported (docs/esign-users.md).');
    } });
  }
}
