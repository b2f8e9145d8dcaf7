import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { ProfileStore } from '../domain/users/user-admin-ports.ts';
import type { Profile, ProfileDraft } from '../domain/users/user-admin.ts';
import type { DefaultProfileKind } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
import { assertAdminRemains } from './admin-remains.ts';
import type { Db } from './database.ts';
import type { Database } from './schema.ts';
import type { PermissionProfileRow } from './user-admin-tables.ts';

type Counted = PermissionProfileRow & { user_count: number | string | bigint; modified_by_name: string | null };

function toProfile(r: Counted): Profile {
  return {
    id: r.id, name: r.name, kind: r.kind as DefaultProfileKind | null, settings: JSON.parse(r.settings) as Record<string, string>,
    modifiedAt: r.modified_at, modifiedBy: r.modified_by_name, userCount: Number(r.user_count),
  };
}

async function selectProfiles(db: Kysely<Database>, accountId: string, profileId?: string): Promise<Profile[]> {
  let q = db.selectFrom('permission_profiles as p')
    .leftJoin('users as u', 'u.id', 'p.modified_by')
    .selectAll('p')
    .select('u.name as modified_by_name')
    .select((eb) => eb.selectFrom('memberships as m').select((e) => e.fn.countAll<number>().as('n'))
      .whereRef('m.permission_profile_id', '=', 'p.id').where('m.status', '!=', 'closed').as('user_count'))
    .where('p.account_id', '=', accountId);
  if (profileId !== undefined) q = q.where('p.id', '=', profileId);
  const rows = await q.orderBy('p.created_at').orderBy('p.name').execute();
  return rows.map((r) => toProfile(r as Counted));
}

async function assertNameFree(trx: Kysely<Database>, accountId: string, name: string, except?: string): Promise<void> {
  let q = trx.selectFrom('permission_profiles').select('id').where('account_id', '=', accountId).where('name', '=', name);
  if (except) q = q.where('id', '!=', except);
  if (await q.executeTakeFirst()) throw new EsignError('INVALID_REQUEST_PARAMETER', `permissionProfileName "${name}" is already the name of another profile of the account.`);
}

/** Permission profiles (store/user-admin-tables.ts). */
export class PermissionProfilesRepository implements ProfileStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  listProfiles(accountId: string): Promise<Profile[]> {
    return selectProfiles(this.#db.kysely, accountId);
  }

  async findProfile(accountId: string, profileId: string): Promise<Profile | undefined> {
    return (await selectProfiles(this.#db.kysely, accountId, profileId))[0];
  }

  insertProfile(accountId: string, draft: Required<ProfileDraft>, by: string, at: Date): Promise<Profile> {
    return this.#db.transaction(async (trx) => {
      await assertNameFree(trx, accountId, draft.name);
      const id = randomUUID();
      await trx.insertInto('permission_profiles').values({ id, account_id: accountId, name: draft.name, kind: null, settings: JSON.stringify(draft.settings), created_at: at.toISOString(), modified_at: at.toISOString(), modified_by: by }).execute();
      return (await selectProfiles(trx, accountId, id))[0] as Profile;
    });
  }

  updateProfile(accountId: string, profileId: string, draft: ProfileDraft, by: string, at: Date): Promise<Profile> {
    return this.#db.transaction(async (trx) => {
      const row = await trx.selectFrom('permission_profiles').selectAll().where('account_id', '=', accountId).where('id', '=', profileId).executeTakeFirst();
      if (!row) throw new EsignError('INVALID_REQUEST_PARAMETER', `permissionProfileId "${profileId}" is not a profile of the account.`);
      if (draft.name !== undefined) await assertNameFree(trx, accountId, draft.name, profileId);
      const settings = { ...(JSON.parse(row.settings) as Record<string, string>), ...draft.settings };
      await trx.updateTable('permission_profiles').set({ name: draft.name ?? row.name, settings: JSON.stringify(settings), modified_at: at.toISOString(), modified_by: by })
        .where('id', '=', profileId).execute();
      await assertAdminRemains(trx, accountId);
      return (await selectProfiles(trx, accountId, profileId))[0] as Profile;
    });
  }

  deleteProfile(accountId: string, profileId: string, moveTo: string | undefined): Promise<'deleted' | 'in-use'> {
    return this.#db.transaction(async (trx) => {
      if (moveTo !== undefined) {
        await trx.updateTable('memberships').set({ permission_profile_id: moveTo }).where('account_id', '=', accountId).where('permission_profile_id', '=', profileId).execute();
        await trx.updateTable('account_groups').set({ permission_profile_id: moveTo }).where('account_id', '=', accountId).where('permission_profile_id', '=', profileId).execute();
      }
      const user = await trx.selectFrom('memberships').select('user_id').where('account_id', '=', accountId).where('permission_profile_id', '=', profileId).where('status', '!=', 'closed').executeTakeFirst();
      const group = await trx.selectFrom('account_groups').select('id').where('account_id', '=', accountId).where('permission_profile_id', '=', profileId).executeTakeFirst();
      if (user || group) return 'in-use';
      // Closed memberships keep no profile: they no longer act in the account.
      await trx.updateTable('memberships').set({ permission_profile_id: null }).where('account_id', '=', accountId).where('permission_profile_id', '=', profileId).execute();
      await trx.deleteFrom('permission_profiles').where('account_id', '=', accountId).where('id', '=', profileId).execute();
      await assertAdminRemains(trx, accountId);
      return 'deleted';
    });
  }
}
