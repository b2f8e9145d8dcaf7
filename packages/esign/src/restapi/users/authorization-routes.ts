import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HONOURED_PERMISSIONS, REFUSED_PERMISSIONS } from '../../domain/users/user-authorization.ts';
import {
  createUserAuthorization, deleteUserAuthorizations, getUserAuthorization, listUserAuthorizations, saveUserAuthorizations, updateUserAuthorization,
  type AuthorizationActor, type AuthorizationDeps,
} from '../../domain/users/user-authorization-use-cases.ts';
import { EsignError } from '../../errors.ts';
import { toWireUserAuthorization } from '../../wire/to-wire-user-authorization.ts';
import { page } from '../../wire/to-wire-users.ts';
import { parseAuthorizationCreate, parseAuthorizationIds, parseAuthorizationsRequest, parseAuthorizationUpdate } from './parse-user-authorization.ts';
import { paging, readQuery, type RawQuery } from './query.ts';

type Params = { accountId: string; userId: string };
type OneParams = Params & { authorizationId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/users/:userId';
const LIST_QUERY = ['active_only', 'count', 'start_position', 'email_substring', 'user_name_substring', 'permissions'];
const KNOWN_PERMISSIONS = new Set<string>([...HONOURED_PERMISSIONS, ...Object.keys(REFUSED_PERMISSIONS)]);

function actorOf(request: FastifyRequest): AuthorizationActor {
  // The API guard runs first on every /restapi request and sets both; missing is a wiring mistake.
  if (!request.principal || !request.rights) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return { userId: request.principal.userId, rights: request.rights };
}

function permissionsOf(q: Record<string, string>): string[] | undefined {
  if (q.permissions === undefined) return undefined;
  const names = q.permissions.split(',').map((s) => s.trim().toLowerCase()).filter((s) => s !== '');
  const unknown = names.filter((n) => !KNOWN_PERMISSIONS.has(n));
  if (unknown.length > 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `permissions: unknown ${unknown.join(', ')} (DocuSign's are ${[...KNOWN_PERMISSIONS].join(', ')}).`);
  return names;
}

function activeOnly(q: Record<string, string>): boolean {
  const v = q.active_only?.toLowerCase();
  if (v !== undefined && v !== 'true' && v !== 'false') throw new EsignError('INVALID_REQUEST_PARAMETER', `active_only must be true or false, got "${q.active_only}".`);
  return v === 'true';
}

/**
 * AccountsApi's user authorizations (docs/esign-shared-access.md): a principal's agents, created,
 * read, re-dated and deleted by the principal or an administrator; the agent's view of theirs.
 * The API guard never lets these routes be reached through X-DocuSign-Act-On-Behalf.
 */
export function registerAuthorizationRoutes(app: FastifyInstance, deps: AuthorizationDeps): void {
  const list = (side: 'principal' | 'agent') => async (request: FastifyRequest<{ Params: Params; Querystring: RawQuery }>) => {
    const q = readQuery(request.query, LIST_QUERY);
    const { start, count } = paging(q);
    const found = await listUserAuthorizations(deps, actorOf(request), request.params.accountId, {
      side, userId: request.params.userId, activeOnly: activeOnly(q), permissions: permissionsOf(q), emailSubstring: q.email_substring, nameSubstring: q.user_name_substring,
    });
    return page('authorizations', found, start, count, toWireUserAuthorization);
  };
  app.get<{ Params: Params; Querystring: RawQuery }>(`${BASE}/authorizations`, list('principal'));
  app.get<{ Params: Params; Querystring: RawQuery }>(`${BASE}/authorizations/agent`, list('agent'));

  app.post<{ Params: Params; Querystring: RawQuery }>(`${BASE}/authorization`, async (request, reply) => {
    readQuery(request.query, []);
    const created = await createUserAuthorization(deps, actorOf(request), request.params.accountId, request.params.userId, parseAuthorizationCreate(request.body));
    return reply.code(201).send(toWireUserAuthorization(created));
  });

  app.post<{ Params: Params; Querystring: RawQuery }>(`${BASE}/authorizations`, async (request) => {
    readQuery(request.query, []);
    const saved = await saveUserAuthorizations(deps, actorOf(request), request.params.accountId, request.params.userId, parseAuthorizationsRequest(request.body));
    // UserAuthorizationsResponse: one result per item. All succeeded, or the request was refused whole.
    return { results: saved.map((a) => ({ authorization: toWireUserAuthorization(a), success: 'true' })) };
  });

  app.delete<{ Params: Params; Querystring: RawQuery }>(`${BASE}/authorizations`, async (request) => {
    readQuery(request.query, []);
    const ids = parseAuthorizationIds(request.body);
    await deleteUserAuthorizations(deps, actorOf(request), request.params.accountId, request.params.userId, ids);
    return { results: ids.map((authorizationId) => ({ authorizationId, success: 'true' })) };
  });

  app.get<{ Params: OneParams; Querystring: RawQuery }>(`${BASE}/authorization/:authorizationId`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId, authorizationId } = request.params;
    return toWireUserAuthorization(await getUserAuthorization(deps, actorOf(request), accountId, userId, authorizationId));
  });

  app.put<{ Params: OneParams; Querystring: RawQuery }>(`${BASE}/authorization/:authorizationId`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId, authorizationId } = request.params;
    return toWireUserAuthorization(await updateUserAuthorization(deps, actorOf(request), accountId, userId, authorizationId, parseAuthorizationUpdate(request.body)));
  });

  app.delete<{ Params: OneParams; Querystring: RawQuery }>(`${BASE}/authorization/:authorizationId`, async (request) => {
    readQuery(request.query, []);
    const { accountId, userId, authorizationId } = request.params;
    await deleteUserAuthorizations(deps, actorOf(request), accountId, userId, [authorizationId]);
    return {};
  });
}
