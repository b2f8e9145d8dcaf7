import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** A group's profile goes to its members (DocuSign's group permission profiles). */
export async function giveGroupProfile(trx: Kysely<Database>, accountId: string, groupId: string): Promise<void> {
  const group = await trx.selectFrom('account_groups').select('permission_profile_id').where('id', '=', groupId).where('account_id', '=', accountId).executeTakeFirst();
  if (!group?.permission_profile_id) return;
  await trx.updateTable('memberships').set({ permission_profile_id: group.permission_profile_id })
    .where('account_id', '=', accountId).where('status', '!=', 'closed')
    .where('user_id', 'in', trx.selectFrom('group_members').select('user_id').where('group_id', '=', groupId)).execute();
}
