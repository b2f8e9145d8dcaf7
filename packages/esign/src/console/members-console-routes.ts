import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { rightsOf } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
import { MembersRepository } from '../store/members-repository.ts';
import { csrfTokenFor } from '../web/csrf.ts';
import { sessionUser } from '../web/session.ts';
import { membersPage } from './member-pages.ts';

/**
 * The console's members page (docs/esign-users.md): the signed-in user's default account's
 * members and pending invitations, for a member whose profile allows managing the account.
 */
export function registerMembersConsoleRoutes(app: FastifyInstance, ctx: EsignContext): void {
  const members = new MembersRepository(ctx.store.db, ctx.config.sendAllowance);
  app.get('/console/members', async (request, reply) => {
    const user = await sessionUser(ctx, request);
    if (!user) return reply.redirect(`/login?return_to=${encodeURIComponent('/console/members')}`, 303);
    const account = (await ctx.store.accounts.accountsOf(user.id))[0];
    const settings = account ? await ctx.store.accounts.memberSettings(user.id, account.accountId) : undefined;
    if (!account || !settings || !rightsOf(settings).manageAccount) {
      throw new EsignError('USER_LACKS_PERMISSIONS', 'The user\'s permission profile does not allow managing the account (allowAccountManagement).');
    }
    const list = (await members.listMembers(account.accountId, {})).filter((m) => m.status !== 'closed');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store')
      .send(membersPage({ user, csrf: csrfTokenFor(ctx, request, reply), accountName: account.accountName, members: list }));
  });
}
