import type { Kysely } from 'kysely';
import type { GroupStore } from '../domain/users/user-admin-ports.ts';
import type { Group, GroupDraft, Member } from '../domain/users/user-admin.ts';
import { assertAdminRemains } from './admin-remains.ts';
import { giveGroupProfile } from './give-group-profile.ts';
import type { Db } from './database.ts';
import { selectMembers } from './members-repository.ts';
import type { Database } from './schema.ts';

async function selectGroups(db: Kysely<Database>, accountId: string, groupIds?: readonly string[]): Promise<Group[]> {
  let q = db.selectFrom('account_groups as g')
    .selectAll('g')
    .select((eb) => eb.selectFrom('group_members as gm').select((e) => e.fn.countAll<number>().as('n')).whereRef('gm.group_id', '=', 'g.id').as('user_count'))
    .where('g.account_id', '=', accountId);
  if (groupIds !== undefined) q = q.where('g.id', 'in', groupIds.length > 0 ? [...groupIds] : ['']);
  const rows = await q.orderBy('g.name').execute();
  return rows.map((r) => ({ id: r.id, name: r.name, profileId: r.permission_profile_id, modifiedAt: r.modified_at, userCount: Number(r.user_count) }));
}


/** The account's groups and who is in them (store/user-admin-tables.ts). */
export class GroupsRepository implements GroupStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  listGroups(accountId: string): Promise<Group[]> {
    return selectGroups(this.#db.kysely, accountId);
  }

  async findGroup(accountId: string, groupId: string): Promise<Group | undefined> {
    return (await selectGroups(this.#db.kysely, accountId, [groupId]))[0];
  }

  saveGroups(accountId: string, drafts: readonly GroupDraft[], at: Date, newId: () => string): Promise<Group[]> {
    return this.#db.transaction(async (trx) => {
      const now = at.toISOString();
      const ids: string[] = [];
      for (const d of drafts) {
        if (d.id === undefined) {
          const id = newId();
          await trx.insertInto('account_groups').values({ id, account_id: accountId, name: d.name ?? '', permission_profile_id: d.profileId ?? null, created_at: now, modified_at: now }).execute();
          ids.push(id);
          continue;
        }
        await trx.updateTable('account_groups').set({ modified_at: now, ...(d.name !== undefined ? { name: d.name } : {}), ...(d.profileId !== undefined ? { permission_profile_id: d.profileId } : {}) })
          .where('id', '=', d.id).where('account_id', '=', accountId).execute();
        if (d.profileId !== undefined) await giveGroupProfile(trx, accountId, d.id);
        ids.push(d.id);
      }
      await assertAdminRemains(trx, accountId);
      const saved = await selectGroups(trx, accountId, ids);
      return ids.map((id) => saved.find((g) => g.id === id) as Group);
    });
  }

  deleteGroups(accountId: string, groupIds: readonly string[]): Promise<void> {
    return this.#db.transaction(async (trx) => {
      const own = trx.selectFrom('account_groups').select('id').where('account_id', '=', accountId).where('id', 'in', [...groupIds]);
      await trx.deleteFrom('group_members').where('group_id', 'in', own).execute();
      await trx.deleteFrom('account_groups').where('account_id', '=', accountId).where('id', 'in', [...groupIds]).execute();
    });
  }

  groupMembers(accountId: string, groupId: string): Promise<Member[]> {
    return selectMembers(this.#db.kysely, accountId, { groupId });
  }

  addGroupMembers(accountId: string, groupId: string, userIds: readonly string[], at: Date): Promise<void> {
    return this.#db.transaction(async (trx) => {
      const already = new Set((await trx.selectFrom('group_members').select('user_id').where('group_id', '=', groupId).execute()).map((r) => r.user_id));
      for (const userId of new Set(userIds)) {
        if (!already.has(userId)) await trx.insertInto('group_members').values({ group_id: groupId, user_id: userId, created_at: at.toISOString() }).execute();
      }
      await giveGroupProfile(trx, accountId, groupId);
      await assertAdminRemains(trx, accountId);
    });
  }

  async removeGroupMembers(accountId: string, groupId: string, userIds: readonly string[]): Promise<void> {
    if (userIds.length === 0) return;
    await this.#db.kysely.deleteFrom('group_members').where('group_id', 'in', this.#db.kysely.selectFrom('account_groups').select('id').where('account_id', '=', accountId).where('id', '=', groupId))
      .where('user_id', 'in', [...userIds]).execute();
  }
}
