import { EsignError } from '../../errors.ts';
import type { Rights } from './role-settings.ts';
import type { AuthorizationFilter, UserAuthorizationStore } from './user-authorization-ports.ts';
import { HONOURED_PERMISSIONS, mayAdminister, REFUSED_PERMISSIONS, type AuthorizationPermission, type UserAuthorizationView } from './user-authorization.ts';

export type AuthorizationDeps = {
  readonly authorizations: UserAuthorizationStore;
  readonly clock: () => Date;
  readonly uuid: () => string;
};

/** The caller of an authorization call: the token's user and what their profile allows. */
export type AuthorizationActor = { readonly userId: string; readonly rights: Rights };

/** What a create names (UserAuthorizationCreateRequest). */
export type AuthorizationDraft = {
  readonly agentUserId: string;
  /** agentUser.accountId when given: must be the account of the call. */
  readonly agentAccountId?: string | undefined;
  readonly permission: string;
  readonly startDate?: Date | undefined;
  readonly endDate?: Date | undefined;
};

/** New dates of an existing authorization (UserAuthorizationUpdateRequest); absent ones stay. */
export type AuthorizationDates = { readonly startDate?: Date | undefined; readonly endDate?: Date | undefined };

function mustAdminister(actor: AuthorizationActor, principalUserId: string): void {
  if (!mayAdminister(actor, principalUserId)) {
    throw new EsignError('USER_LACKS_PERMISSIONS', 'Only the principal user or a user allowed to manage the account (allowAccountManagement) may see or change their user authorizations.');
  }
}

function permissionOf(name: string): AuthorizationPermission {
  const key = name.trim().toLowerCase();
  const why = REFUSED_PERMISSIONS[key];
  if (why !== undefined) throw new EsignError('INVALID_REQUEST_BODY', `permission "${name}" is not supported: ${why}.`);
  const found = HONOURED_PERMISSIONS.find((p) => p === key);
  if (!found) throw new EsignError('INVALID_REQUEST_BODY', `permission must be one of ${HONOURED_PERMISSIONS.join(', ')}, got "${name}".`);
  return found;
}

function checkDates(startDate: Date, endDate: Date | undefined): void {
  if (endDate !== undefined && endDate.getTime() <= startDate.getTime()) throw new EsignError('INVALID_REQUEST_BODY', 'endDate must be after startDate.');
}

async function principalOf(deps: AuthorizationDeps, accountId: string, principalUserId: string): Promise<void> {
  if (principalUserId.length > 100 || !(await deps.authorizations.party(accountId, principalUserId))) {
    throw new EsignError('INVALID_USERID', `"${principalUserId}" is not a user of the account.`);
  }
}

/** The principal's authorization by id; others' ids read as unknown, so ids of other principals or accounts leak nothing. */
async function ownAuthorization(deps: AuthorizationDeps, accountId: string, principalUserId: string, authorizationId: string): Promise<UserAuthorizationView> {
  const found = authorizationId.length > 100 ? undefined : await deps.authorizations.find(accountId, authorizationId);
  if (!found || found.principalUserId !== principalUserId) throw new EsignError('USER_AUTHORIZATION_NOT_FOUND', `"${authorizationId}" is not an authorization of this principal user.`);
  return found;
}

/** Validates a create without writing it: the new authorization, ready to insert. */
async function prepareCreate(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, principalUserId: string, draft: AuthorizationDraft, now: Date) {
  if (draft.agentAccountId !== undefined && draft.agentAccountId !== accountId) {
    // DocuSign: the agent user and principal user must belong to the same account.
    throw new EsignError('INVALID_USERID', 'agentUser.accountId must be the account of the call: the agent and the principal belong to the same account.');
  }
  if (draft.agentUserId === principalUserId) throw new EsignError('INVALID_USERID', 'A user cannot be their own agent.');
  if (draft.agentUserId.length > 100 || !(await deps.authorizations.party(accountId, draft.agentUserId))) {
    throw new EsignError('INVALID_USERID', `agentUser "${draft.agentUserId}" is not a user of the account.`);
  }
  const permission = permissionOf(draft.permission);
  const startDate = draft.startDate ?? now;
  checkDates(startDate, draft.endDate);
  const existing = await deps.authorizations.list(accountId, { side: 'principal', userId: principalUserId, permissions: [permission] });
  const clash = existing.find((a) => a.agentUserId === draft.agentUserId && (a.endDate === undefined || a.endDate.getTime() > now.getTime()));
  if (clash) throw new EsignError('INVALID_REQUEST_BODY', `The agent already holds a ${permission} authorization from this principal (${clash.authorizationId}); change its dates instead.`);
  return {
    authorizationId: deps.uuid(), accountId, principalUserId, agentUserId: draft.agentUserId, permission, startDate, endDate: draft.endDate,
    created: now, createdBy: actor.userId, modified: now, modifiedBy: actor.userId,
  };
}

/**
 * AccountsApi.createUserAuthorization: the principal (or an administrator) lets an agent of the
 * same account act for them at the permission given, from startDate (default now) until endDate.
 */
export async function createUserAuthorization(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, principalUserId: string, draft: AuthorizationDraft): Promise<UserAuthorizationView> {
  mustAdminister(actor, principalUserId);
  await principalOf(deps, accountId, principalUserId);
  const created = await prepareCreate(deps, actor, accountId, principalUserId, draft, deps.clock());
  await deps.authorizations.insert(created);
  return ownAuthorization(deps, accountId, principalUserId, created.authorizationId);
}

/** AccountsApi.updateUserAuthorization: new start and end dates; the agent and the permission stay. */
export async function updateUserAuthorization(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, principalUserId: string, authorizationId: string, dates: AuthorizationDates): Promise<UserAuthorizationView> {
  mustAdminister(actor, principalUserId);
  const current = await ownAuthorization(deps, accountId, principalUserId, authorizationId);
  const startDate = dates.startDate ?? current.startDate;
  const endDate = dates.endDate ?? current.endDate;
  checkDates(startDate, endDate);
  await deps.authorizations.update(accountId, authorizationId, { startDate, endDate, modified: deps.clock(), modifiedBy: actor.userId });
  return ownAuthorization(deps, accountId, principalUserId, authorizationId);
}

/**
 * AccountsApi.createUserAuthorizations: creates (no authorizationId) and date changes (with one)
 * of one principal's authorizations. Every item is checked before anything is written, so a bad
 * item refuses the whole request, naming it.
 */
export async function saveUserAuthorizations(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, principalUserId: string, items: readonly (AuthorizationDraft & { readonly authorizationId?: string | undefined })[]): Promise<UserAuthorizationView[]> {
  mustAdminister(actor, principalUserId);
  await principalOf(deps, accountId, principalUserId);
  const now = deps.clock();
  const creates = [];
  const updates = [];
  const agents = new Set<string>();
  for (const [i, item] of items.entries()) {
    try {
      if (item.authorizationId !== undefined) {
        const current = await ownAuthorization(deps, accountId, principalUserId, item.authorizationId);
        const startDate = item.startDate ?? current.startDate;
        const endDate = item.endDate ?? current.endDate;
        checkDates(startDate, endDate);
        updates.push({ id: item.authorizationId, startDate, endDate });
      } else {
        const key = `${item.agentUserId}\n${item.permission.trim().toLowerCase()}`;
        if (agents.has(key)) throw new EsignError('INVALID_REQUEST_BODY', 'The same agent and permission are named twice.');
        agents.add(key);
        creates.push(await prepareCreate(deps, actor, accountId, principalUserId, item, now));
      }
    } catch (err) {
      if (err instanceof EsignError) throw new EsignError(err.code, `authorizations[${i}]: ${err.message}`);
      throw err;
    }
  }
  for (const c of creates) await deps.authorizations.insert(c);
  for (const u of updates) await deps.authorizations.update(accountId, u.id, { startDate: u.startDate, endDate: u.endDate, modified: now, modifiedBy: actor.userId });
  return Promise.all([...creates.map((c) => c.authorizationId), ...updates.map((u) => u.id)].map((id) => ownAuthorization(deps, accountId, principalUserId, id)));
}

/** AccountsApi.getUserAuthorization. */
export async function getUserAuthorization(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, principalUserId: string, authorizationId: string): Promise<UserAuthorizationView> {
  mustAdminister(actor, principalUserId);
  return ownAuthorization(deps, accountId, principalUserId, authorizationId);
}

/** AccountsApi.deleteUserAuthorization(s): all the ids are checked first, then all are deleted. */
export async function deleteUserAuthorizations(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, principalUserId: string, authorizationIds: readonly string[]): Promise<void> {
  mustAdminister(actor, principalUserId);
  for (const id of authorizationIds) await ownAuthorization(deps, accountId, principalUserId, id);
  await deps.authorizations.delete(accountId, authorizationIds);
}

/**
 * getPrincipalUserAuthorizations (the principal or an administrator) and
 * getAgentUserAuthorizations: DocuSign answers an administrator in full and anyone else only the
 * authorizations they are the principal of; an agent also sees their own.
 */
export async function listUserAuthorizations(deps: AuthorizationDeps, actor: AuthorizationActor, accountId: string, filter: Omit<AuthorizationFilter, 'involving'> & { readonly activeOnly: boolean }): Promise<UserAuthorizationView[]> {
  if (filter.side === 'principal') mustAdminister(actor, filter.userId);
  const { activeOnly, ...rest } = filter;
  return deps.authorizations.list(accountId, {
    ...rest,
    ...(activeOnly ? { liveAt: deps.clock() } : {}),
    ...(actor.rights.manageAccount ? {} : { involving: actor.userId }),
  });
}
