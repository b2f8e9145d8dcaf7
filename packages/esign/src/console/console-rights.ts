import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { deniedBecause, type Need } from '../domain/users/route-permission.ts';
import { rightsOf } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';
import { envelopeAccessDenied, relationOf } from '../domain/envelope/envelope-access.ts';
import { sessionUser } from '../web/session.ts';

/**
 * The console's pages act as the API does, so the same permission profile settings hold there
 * (docs/esign-users.md); API access is the API's alone and is not asked here.
 */
export async function assertConsoleRight(ctx: EsignContext, userId: string, accountId: string, need: Need): Promise<void> {
  const refusal = await consoleRefusal(ctx, userId, accountId, need);
  if (refusal) throw refusal;
}

/** Whether the member's profile allows `need` in the account (the console home shows only what it may use). */
export async function hasConsoleRight(ctx: EsignContext, userId: string, accountId: string, need: Need): Promise<boolean> {
  return (await consoleRefusal(ctx, userId, accountId, need)) === undefined;
}

async function consoleRefusal(ctx: EsignContext, userId: string, accountId: string, need: Need): Promise<EsignError | undefined> {
  const settings = await ctx.store.accounts.memberSettings(userId, accountId);
  if (settings === undefined) return new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
  const denied = deniedBecause({ ...rightsOf(settings), api: true }, need);
  return denied ? new EsignError('USER_LACKS_PERMISSIONS', denied) : undefined;
}

/**
 * An envelope page of the console follows the API's rule (domain/envelope/envelope-access.ts):
 * a member whose profile does not reach the account's envelopes opens those they sent, or
 * received to read, and acts only on those they sent.
 */
export async function assertConsoleEnvelope(ctx: EsignContext, user: { readonly id: string; readonly email: string }, envelope: Envelope, intent: 'read' | 'change'): Promise<void> {
  const settings = await ctx.store.accounts.memberSettings(user.id, envelope.accountId);
  if (settings === undefined) throw new EsignError('ENVELOPE_DOES_NOT_EXIST');
  if (rightsOf(settings).allEnvelopes) return;
  const denied = envelopeAccessDenied(relationOf(envelope, { userId: user.id, email: user.email }), intent);
  if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', denied);
}

/** What a console page of the default account needs: templates to read or change, Connect to manage. */
function consoleNeed(method: string, url: string): Need {
  const read = method === 'GET' || method === 'HEAD';
  if (url.startsWith('/console/templates')) return read ? 'useTemplates' : 'editTemplates';
  if (url.startsWith('/console/connect')) return 'manageAccount';
  return 'none';
}

/**
 * Before the template and Connect pages, which act on the signed-in user's default account:
 * its member's profile must allow them. Without a session the page's own redirect to the login
 * page runs. The envelope pages check the envelope's own account (console/envelope-console-routes.ts).
 */
export function installConsoleRights(app: FastifyInstance, ctx: EsignContext): void {
  app.addHook('preHandler', async (request) => {
    // The route it matched decides; the path as text (canonical: web/canonical-url.ts) when none did.
    const url = request.routeOptions.url ?? request.url;
    const need = consoleNeed(request.method, url);
    // A console form does what an API call does (a correction mails a new address, a template
    // converts its documents): it spends the account's API budget, or a signed-in browser
    // would be an unmetered API (600 corrections in 2.6 s, 600 mails, in a review).
    const write = request.method !== 'GET' && request.method !== 'HEAD' && url.startsWith('/console/');
    if (need === 'none' && !write) return;
    const user = await sessionUser(ctx, request);
    if (!user) return;
    const account = (await ctx.store.accounts.accountsOf(user.id))[0];
    if (!account) return;
    if (need !== 'none') await assertConsoleRight(ctx, user.id, account.accountId, need);
    if (write) app.apiRateLimiter.take(account.accountId);
  });
}
