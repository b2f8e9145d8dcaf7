import type { AuthorizationFilter, UserAuthorizationStore } from '../domain/users/user-authorization-ports.ts';
import { isLive, type AuthorizationParty, type AuthorizationPermission, type UserAuthorization, type UserAuthorizationView } from '../domain/users/user-authorization.ts';
import type { Db } from './database.ts';
import type { SharedAccessEventRow, UserAuthorizationRow } from './user-authorization-tables.ts';

type ViewRow = UserAuthorizationRow & { p_name: string; p_email: string; a_name: string; a_email: string };

function toView(r: ViewRow): UserAuthorizationView {
  return {
    authorizationId: r.id, accountId: r.account_id, principalUserId: r.principal_user_id, agentUserId: r.agent_user_id,
    permission: r.permission as AuthorizationPermission, startDate: new Date(r.start_date), endDate: r.end_date === null ? undefined : new Date(r.end_date),
    created: new Date(r.created_at), createdBy: r.created_by, modified: new Date(r.modified_at), modifiedBy: r.modified_by,
    principal: { userId: r.principal_user_id, name: r.p_name, email: r.p_email },
    agent: { userId: r.agent_user_id, name: r.a_name, email: r.a_email },
  };
}

/** One line of the shared-access audit: who acted as whom, on which route, with what result. */
export type SharedAccessEvent = {
  readonly at: Date; readonly accountId: string; readonly agentUserId: string; readonly principalUserId: string;
  readonly authorizationId: string; readonly method: string; readonly route: string; readonly statusCode: number;
};

/** The account's user authorizations (store/user-authorization-tables.ts) and the audit of their use. */
export class UserAuthorizationsRepository implements UserAuthorizationStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  #views() {
    return this.#db.kysely.selectFrom('user_authorizations as ua')
      .innerJoin('users as pu', 'pu.id', 'ua.principal_user_id')
      .innerJoin('users as au', 'au.id', 'ua.agent_user_id')
      .selectAll('ua')
      .select(['pu.name as p_name', 'pu.email as p_email', 'au.name as a_name', 'au.email as a_email']);
  }

  async party(accountId: string, userId: string): Promise<AuthorizationParty | undefined> {
    const row = await this.#db.kysely.selectFrom('memberships as m').innerJoin('users as u', 'u.id', 'm.user_id')
      .select(['u.id', 'u.name', 'u.email'])
      .where('m.account_id', '=', accountId).where('m.user_id', '=', userId).where('m.status', 'in', ['active', 'pending'])
      .executeTakeFirst();
    return row && { userId: row.id, name: row.name, email: row.email };
  }

  async find(accountId: string, authorizationId: string): Promise<UserAuthorizationView | undefined> {
    const row = await this.#views().where('ua.account_id', '=', accountId).where('ua.id', '=', authorizationId).executeTakeFirst();
    return row && toView(row);
  }

  async list(accountId: string, filter: AuthorizationFilter): Promise<UserAuthorizationView[]> {
    let q = this.#views().where('ua.account_id', '=', accountId)
      .where(filter.side === 'principal' ? 'ua.principal_user_id' : 'ua.agent_user_id', '=', filter.userId);
    if (filter.permissions !== undefined) q = q.where('ua.permission', 'in', filter.permissions.length > 0 ? [...filter.permissions] : ['']);
    if (filter.involving !== undefined) {
      const who = filter.involving;
      q = q.where((eb) => eb.or([eb('ua.principal_user_id', '=', who), eb('ua.agent_user_id', '=', who)]));
    }
    const rows = (await q.orderBy('ua.created_at').orderBy('ua.id').execute()).map(toView);
    // The other party of the listing: the agents of a principal, the principals of an agent.
    const other = (a: UserAuthorizationView) => (filter.side === 'principal' ? a.agent : a.principal);
    const email = filter.emailSubstring?.toLowerCase();
    const name = filter.nameSubstring?.toLowerCase();
    return rows.filter((a) => (filter.liveAt === undefined || isLive(a, filter.liveAt))
      && (email === undefined || other(a).email.toLowerCase().includes(email))
      && (name === undefined || other(a).name.toLowerCase().includes(name)));
  }

  async insert(a: UserAuthorization): Promise<void> {
    await this.#db.kysely.insertInto('user_authorizations').values({
      id: a.authorizationId, account_id: a.accountId, principal_user_id: a.principalUserId, agent_user_id: a.agentUserId, permission: a.permission,
      start_date: a.startDate.toISOString(), end_date: a.endDate?.toISOString() ?? null,
      created_at: a.created.toISOString(), created_by: a.createdBy, modified_at: a.modified.toISOString(), modified_by: a.modifiedBy,
    }).execute();
  }

  async update(accountId: string, authorizationId: string, patch: { readonly startDate: Date; readonly endDate: Date | undefined; readonly modified: Date; readonly modifiedBy: string }): Promise<void> {
    await this.#db.kysely.updateTable('user_authorizations')
      .set({ start_date: patch.startDate.toISOString(), end_date: patch.endDate?.toISOString() ?? null, modified_at: patch.modified.toISOString(), modified_by: patch.modifiedBy })
      .where('account_id', '=', accountId).where('id', '=', authorizationId).execute();
  }

  async delete(accountId: string, authorizationIds: readonly string[]): Promise<void> {
    if (authorizationIds.length === 0) return;
    await this.#db.kysely.deleteFrom('user_authorizations').where('account_id', '=', accountId).where('id', 'in', [...authorizationIds]).execute();
  }

  async liveFor(accountId: string, principalUserId: string, agentUserId: string, now: Date): Promise<UserAuthorization[]> {
    const rows = await this.#db.kysely.selectFrom('user_authorizations').selectAll()
      .where('account_id', '=', accountId).where('principal_user_id', '=', principalUserId).where('agent_user_id', '=', agentUserId)
      .where('start_date', '<=', now.toISOString())
      .where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>', now.toISOString())]))
      .execute();
    return rows.map((r) => ({
      authorizationId: r.id, accountId: r.account_id, principalUserId: r.principal_user_id, agentUserId: r.agent_user_id, permission: r.permission as AuthorizationPermission,
      startDate: new Date(r.start_date), endDate: r.end_date === null ? undefined : new Date(r.end_date),
      created: new Date(r.created_at), createdBy: r.created_by, modified: new Date(r.modified_at), modifiedBy: r.modified_by,
    }));
  }

  /** Appends a line of the shared-access audit; there is deliberately no update or delete. */
  async recordUse(e: SharedAccessEvent): Promise<void> {
    const row: SharedAccessEventRow = {
      at: e.at.toISOString(), account_id: e.accountId, agent_user_id: e.agentUserId, principal_user_id: e.principalUserId,
      authorization_id: e.authorizationId, method: e.method, route: e.route, status_code: e.statusCode,
    };
    await this.#db.kysely.insertInto('shared_access_events').values(row).execute();
  }

  /** The account's shared-access audit, oldest first. */
  async uses(accountId: string): Promise<SharedAccessEvent[]> {
    const rows = await this.#db.kysely.selectFrom('shared_access_events').selectAll().where('account_id', '=', accountId).orderBy('seq').execute();
    return rows.map((r) => ({
      at: new Date(r.at), accountId: r.account_id, agentUserId: r.agent_user_id, principalUserId: r.principal_user_id,
      authorizationId: r.authorization_id, method: r.method, route: r.route, statusCode: Number(r.status_code),
    }));
  }
}
