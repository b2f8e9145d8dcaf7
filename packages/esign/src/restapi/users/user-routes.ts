import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemberStatus } from '../../domain/users/user-admin.ts';
import { closeUsers, getUser, inviteUsers, updateUser, updateUsers, type Actor, type UserDeps } from '../../domain/users/user-use-cases.ts';
import { EsignError } from '../../errors.ts';
import { page, toWireUser, toWireUserInfo } from '../../wire/to-wire-users.ts';
import { parseNewUsers, parseUserIds, parseUserUpdate } from './parse-user-admin.ts';
import { parseUsersUpdate } from './parse-user-profile.ts';
import { paging, readQuery, type RawQuery } from './query.ts';

type Params = { accountId: string; userId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/users';
const STATUS: Record<string, MemberStatus> = { active: 'active', activationsent: 'pending', closed: 'closed' };

/** The token's user and their rights in the account, as the API guard set them. */
export function actorOf(request: FastifyRequest): Actor {
  if (!request.rights || !request.principal) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  return { userId: request.principal.userId, rights: request.rights };
}

function status(value: string | undefined): MemberStatus | undefined {
  if (value === undefined) return undefined;
  const found = STATUS[value.toLowerCase()];
  if (!found) throw new EsignError('INVALID_REQUEST_PARAMETER', `status must be one of Active, ActivationSent, Closed, got "${value}".`);
  return found;
}

/**
 * UsersApi's calls (docs/esign-users.md): list, getInformation, create (an invitation by mail),
 * updateUser, updateUsers and _delete. The API guard lets a member reach only their own user unless their
 * profile allows managing the account; a removed member's tokens stop at the guard.
 */
export function registerUserRoutes(app: FastifyInstance, deps: UserDeps & { accountName: (accountId: string) => Promise<string> }): void {
  app.get<{ Params: { accountId: string }; Querystring: RawQuery }>(BASE, async (request) => {
    const q = readQuery(request.query, ['status', 'email', 'email_substring', 'group_id', 'count', 'start_position', 'additional_info']);
    const { start, count } = paging(q);
    const { accountId } = request.params;
    const members = await deps.members.listMembers(accountId, { status: status(q.status), email: q.email, emailSubstring: q.email_substring, groupId: q.group_id });
    const profiles = await deps.profiles.listProfiles(accountId);
    return page('users', members, start, count, (m) => toWireUser(m, profiles));
  });

  app.post<{ Params: { accountId: string } }>(BASE, async (request, reply) => {
    const { accountId } = request.params;
    const created = await inviteUsers(deps, accountId, await deps.accountName(accountId), parseNewUsers(request.body));
    const profiles = await deps.profiles.listProfiles(accountId);
    return reply.code(201).send({ newUsers: created.map((m) => toWireUser(m, profiles)) });
  });

  app.put<{ Params: { accountId: string }; Querystring: RawQuery }>(BASE, async (request) => {
    readQuery(request.query, []);
    const { accountId } = request.params;
    const updated = await updateUsers(deps, accountId, actorOf(request), parseUsersUpdate(request.body));
    const profiles = await deps.profiles.listProfiles(accountId);
    return { users: updated.map((m) => toWireUser(m, profiles)) };
  });

  app.delete<{ Params: { accountId: string }; Querystring: RawQuery }>(BASE, async (request) => {
    readQuery(request.query, []);
    const closed = await closeUsers(deps, request.params.accountId, parseUserIds(request.body));
    return { users: closed.map(toWireUserInfo) };
  });

  app.get<{ Params: Params; Querystring: RawQuery }>(`${BASE}/:userId`, async (request) => {
    readQuery(request.query, ['additional_info']);
    const { accountId, userId } = request.params;
    return toWireUser(await getUser(deps.members, accountId, userId), await deps.profiles.listProfiles(accountId));
  });

  app.put<{ Params: Params; Querystring: RawQuery }>(`${BASE}/:userId`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId } = request.params;
    const member = await updateUser(deps, accountId, actorOf(request), userId, parseUserUpdate(request.body));
    return toWireUser(member, await deps.profiles.listProfiles(accountId));
  });
}
