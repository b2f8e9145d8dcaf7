import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { MemberFilter, MemberStore } from '../domain/users/user-admin-ports.ts';
import type { Invitee, Member, MemberStatus } from '../domain/users/user-admin.ts';
import type { MailMessage } from '../domain/mail/mail-message.ts';
import { assertAdminRemains } from './admin-remains.ts';
import { giveGroupProfile } from './give-group-profile.ts';
import type { Db } from './database.ts';
import { enqueueMails } from './outbox-repository.ts';
import { spendSendAllowance } from './send-allowance.ts';
import type { Database } from './schema.ts';

/** Inside a transaction or not: the account's members as UsersApi shows them, with their groups. */
export async function selectMembers(db: Kysely<Database>, accountId: string, filter: MemberFilter & { userIds?: readonly string[] }): Promise<Member[]> {
  let q = db.selectFrom('memberships as m')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('permission_profiles as p', 'p.id', 'm.permission_profile_id')
    .select(['u.id', 'u.email', 'u.name', 'u.created_at as user_created_at', 'm.status', 'm.permission_profile_id', 'p.name as profile_name', 'm.created_at'])
    .where('m.account_id', '=', accountId);
  if (filter.status !== undefined) q = q.where('m.status', '=', filter.status);
  if (filter.email !== undefined) q = q.where('u.email', '=', filter.email.toLowerCase());
  if (filter.emailSubstring !== undefined) q = q.where('u.email', 'like', `%${filter.emailSubstring.toLowerCase().replace(/[%_\\]/g, '')}%`);
  if (filter.userIds !== undefined) q = q.where('u.id', 'in', filter.userIds.length > 0 ? [...filter.userIds] : ['']);
  if (filter.groupId !== undefined) q = q.where('u.id', 'in', db.selectFrom('group_members').select('user_id').where('group_id', '=', filter.groupId));
  const rows = await q.orderBy('m.created_at').orderBy('u.email').execute();
  const ids = rows.map((r) => r.id);
  const groupRows = ids.length === 0 ? [] : await db.selectFrom('group_members as gm').innerJoin('account_groups as g', 'g.id', 'gm.group_id')
    .select(['gm.user_id', 'g.id', 'g.name']).where('g.account_id', '=', accountId).where('gm.user_id', 'in', ids).orderBy('g.name').execute();
  return rows.map((r) => ({
    userId: r.id, email: r.email, name: r.name, status: r.status as MemberStatus, profileId: r.permission_profile_id, profileName: r.profile_name,
    addedAt: r.created_at, userCreatedAt: r.user_created_at,
    groups: groupRows.filter((g) => g.user_id === r.id).map((g) => ({ id: g.id, name: g.name })),
  }));
}

/** The account's members and their invitations (store/user-admin-tables.ts). */
export class MembersRepository implements MemberStore {
  readonly #db: Db;
  readonly #sendAllowance: number;
  /** `sendAllowance`: invitation mails spend the account's send allowance, as envelopes do (store/send-allowance.ts). */
  constructor(db: Db, sendAllowance: number) {
    this.#db = db;
    this.#sendAllowance = sendAllowance;
  }

  listMembers(accountId: string, filter: MemberFilter): Promise<Member[]> {
    return selectMembers(this.#db.kysely, accountId, filter);
  }

  async findMember(accountId: string, userId: string): Promise<Member | undefined> {
    return (await selectMembers(this.#db.kysely, accountId, { userIds: [userId] }))[0];
  }

  invite(accountId: string, invitees: readonly (Invitee & { readonly tokenHash: string; readonly activationCodeHash?: string | undefined; readonly mail: (userId: string) => MailMessage })[], at: Date, expiresAt: Date): Promise<{ members: Member[] } | { already: string }> {
    return this.#db.transaction(async (trx) => {
      const now = at.toISOString();
      const sender = await trx.selectFrom('permission_profiles').select('id').where('account_id', '=', accountId).where('kind', '=', 'sender').executeTakeFirst();
      const userIds: string[] = [];
      const mails: MailMessage[] = [];
      for (const invitee of invitees) {
        let user = await trx.selectFrom('users').select(['id']).where('email', '=', invitee.email).executeTakeFirst();
        if (!user) {
          // No password yet: nobody can log in as this user before the invitation's link sets one.
          user = { id: randomUUID() };
          await trx.insertInto('users').values({ id: user.id, email: invitee.email, name: invitee.name, password_hash: '', created_at: now }).execute();
        }
        const membership = await trx.selectFrom('memberships').select('status').where('user_id', '=', user.id).where('account_id', '=', accountId).executeTakeFirst();
        if (membership && membership.status !== 'closed') return { already: invitee.email };
        const profileId = invitee.profileId ?? sender?.id ?? null;
        if (membership) {
          await trx.updateTable('memberships').set({ status: 'pending', permission_profile_id: profileId, closed_at: null, created_at: now })
            .where('user_id', '=', user.id).where('account_id', '=', accountId).execute();
        } else {
          await trx.insertInto('memberships').values({ user_id: user.id, account_id: accountId, is_default: 0, is_admin: 0, created_at: now, status: 'pending', permission_profile_id: profileId, closed_at: null }).execute();
        }
        for (const groupId of invitee.groupIds) {
          await trx.insertInto('group_members').values({ group_id: groupId, user_id: user.id, created_at: now }).execute();
          // As when a member is added to the group later: the group's profile wins over the default.
          await giveGroupProfile(trx, accountId, groupId);
        }
        await trx.updateTable('user_invitations').set({ consumed_at: now }).where('user_id', '=', user.id).where('account_id', '=', accountId).where('consumed_at', 'is', null).execute();
        await trx.insertInto('user_invitations').values({ token_hash: invitee.tokenHash, user_id: user.id, account_id: accountId, created_at: now, expires_at: expiresAt.toISOString(), consumed_at: null, activation_code_hash: invitee.activationCodeHash ?? null }).execute();
        mails.push(invitee.mail(user.id));
        userIds.push(user.id);
      }
      await spendSendAllowance(trx, { accountId, recipients: mails.length, now: at, allowance: this.#sendAllowance });
      await enqueueMails(trx, mails, at, accountId);
      return { members: await selectMembers(trx, accountId, { userIds }) };
    });
  }

  updateMembers(accountId: string, patches: readonly { readonly userId: string; readonly name?: string | undefined; readonly profileId?: string | undefined }[]): Promise<void> {
    return this.#db.transaction(async (trx) => {
      for (const patch of patches) {
        if (patch.name !== undefined) await trx.updateTable('users').set({ name: patch.name }).where('id', '=', patch.userId).execute();
        if (patch.profileId !== undefined) {
          await trx.updateTable('memberships').set({ permission_profile_id: patch.profileId }).where('user_id', '=', patch.userId).where('account_id', '=', accountId).execute();
        }
      }
      await assertAdminRemains(trx, accountId);
    });
  }

  async belongsElsewhere(accountId: string, userId: string): Promise<boolean> {
    const row = await this.#db.kysely.selectFrom('memberships').select('user_id').where('user_id', '=', userId).where('account_id', '<>', accountId).limit(1).executeTakeFirst();
    return row !== undefined;
  }

  closeMembers(accountId: string, userIds: readonly string[], at: Date): Promise<void> {
    return this.#db.transaction(async (trx) => {
      if (userIds.length === 0) return;
      const now = at.toISOString();
      await trx.updateTable('memberships').set({ status: 'closed', closed_at: now }).where('account_id', '=', accountId).where('user_id', 'in', [...userIds]).execute();
      await trx.deleteFrom('group_members').where('user_id', 'in', [...userIds])
        .where('group_id', 'in', trx.selectFrom('account_groups').select('id').where('account_id', '=', accountId)).execute();
      await trx.updateTable('user_invitations').set({ consumed_at: now }).where('account_id', '=', accountId).where('user_id', 'in', [...userIds]).where('consumed_at', 'is', null).execute();
      await assertAdminRemains(trx, accountId);
    });
  }
}
