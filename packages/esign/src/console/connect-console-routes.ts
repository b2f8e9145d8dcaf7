import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findConnectEvent, type ConnectEvent } from '../domain/connect/connect-events.ts';
import type { ConnectModule } from '../connect/build-connect.ts';
import type { EsignContext } from '../context.ts';
import { EsignError } from '../errors.ts';
import type { UserAccount } from '../store/index.ts';
import type { UserRow } from '../store/schema.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { sessionUser } from '../web/session.ts';
import { connectPage } from './connect-pages.ts';

const HTML = 'text/html; charset=utf-8';
type IdParams = { Params: { id: string } };

/** Every value of a repeated form field (checkboxes). */
function formValues(body: unknown, name: string): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const value = (body as Record<string, unknown>)[name];
  return (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === 'string');
}

/**
 * The console's Connect page (/console/connect) for the signed-in user's account: add, disable,
 * enable and delete configurations, create and revoke HMAC keys (the secret is shown once), and
 * the failure log with retry and delete. Forms are CSRF-protected like the app pages.
 */
export function registerConnectConsoleRoutes(app: FastifyInstance, ctx: EsignContext, connect: ConnectModule): void {
  const r = connect.repository;

  async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<{ user: UserRow; account: UserAccount } | undefined> {
    const user = await sessionUser(ctx, request);
    if (!user) {
      await reply.redirect(`/login?return_to=${encodeURIComponent('/console/connect')}`, 303);
      return undefined;
    }
    const account = (await ctx.store.accounts.accountsOf(user.id))[0];
    if (!account) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
    return { user, account };
  }

  async function render(request: FastifyRequest, reply: FastifyReply, who: { user: UserRow; account: UserAccount }, extra: { newSecret?: string; error?: string; status?: number } = {}) {
    const page = connectPage({
      user: who.user,
      csrf: csrfTokenFor(ctx, request, reply),
      account: who.account,
      configurations: await r.listConfigurations(who.account.accountId),
      keys: await r.listHmacKeys(who.account.accountId),
      failures: await r.listFailures(who.account.accountId),
      newSecret: extra.newSecret,
      error: extra.error,
    });
    // no-store: a new HMAC secret on this page must not be kept by any cache.
    return reply.code(extra.status ?? 200).type(HTML).header('cache-control', 'no-store').send(page);
  }

  /** Runs a form action; an exposed EsignError is shown on the page instead of an error page. */
  async function action(request: FastifyRequest, reply: FastifyReply, run: (accountId: string) => Promise<string | undefined>) {
    const who = await signedIn(request, reply);
    if (!who) return reply;
    assertCsrf(request);
    try {
      const newSecret = await run(who.account.accountId);
      if (newSecret !== undefined) return await render(request, reply, who, { newSecret });
      return await reply.redirect('/console/connect', 303);
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose) throw err;
      return render(request, reply, who, { error: err.message, status: err.status });
    }
  }

  async function setEnabled(accountId: string, connectId: string, enabled: boolean): Promise<undefined> {
    const found = await r.findConfiguration(accountId, connectId);
    if (!found) throw new EsignError('RESOURCE_NOT_FOUND', `No Connect configuration ${connectId} in this account.`);
    const { connectId: _c, accountId: _a, ...draft } = found;
    await r.updateConfiguration(accountId, connectId, { ...draft, enabled }, ctx.now());
    return undefined;
  }

  app.get('/console/connect', async (request, reply) => {
    const who = await signedIn(request, reply);
    if (!who) return reply;
    return render(request, reply, who);
  });

  app.post('/console/connect/configurations', async (request, reply) =>
    action(request, reply, async (accountId) => {
      const name = (formField(request.body, 'name') ?? '').trim();
      const url = (formField(request.body, 'url') ?? '').trim();
      if (name === '' || name.length > 100) throw new EsignError('INVALID_REQUEST_PARAMETER', 'Give the configuration a name (at most 100 characters).');
      const events = formValues(request.body, 'events').map((e) => findConnectEvent(e)).filter((e): e is ConnectEvent => e !== undefined);
      if (events.length === 0) throw new EsignError('INVALID_REQUEST_PARAMETER', 'Choose at least one event.');
      await connect.checkListener(url, 'Listener URL');
      await r.createConfiguration(accountId, {
        name, url, events, enabled: true, allUsers: true, userIds: [],
        includeHMAC: formField(request.body, 'includeHMAC') === 'true', includeDocuments: false, includeData: [], requireAcknowledgment: true,
      }, ctx.now());
      return undefined;
    }));

  app.post<IdParams>('/console/connect/configurations/:id/disable', async (request, reply) => action(request, reply, (accountId) => setEnabled(accountId, request.params.id, false)));
  app.post<IdParams>('/console/connect/configurations/:id/enable', async (request, reply) => action(request, reply, (accountId) => setEnabled(accountId, request.params.id, true)));
  app.post<IdParams>('/console/connect/configurations/:id/delete', async (request, reply) =>
    action(request, reply, async (accountId) => {
      await r.deleteConfiguration(accountId, request.params.id);
      return undefined;
    }));

  app.post('/console/connect/hmac-keys', async (request, reply) =>
    action(request, reply, async (accountId) => {
      // 256 bits, base64 like DocuSign's keys; stored sealed, shown this once.
      const secret = randomBytes(32).toString('base64');
      // The hint tells keys apart: the last four characters before the base64 padding (every key ends in "=").
      await r.addHmacKey(accountId, connect.secrets.seal(secret), secret.replace(/=+$/, '').slice(-4), ctx.now());
      return secret;
    }));

  app.post<IdParams>('/console/connect/hmac-keys/:id/revoke', async (request, reply) =>
    action(request, reply, async (accountId) => {
      await r.revokeHmacKey(accountId, request.params.id, ctx.now());
      return undefined;
    }));

  app.post<IdParams>('/console/connect/failures/:id/retry', async (request, reply) =>
    action(request, reply, async (accountId) => {
      const failure = await r.findDelivery(accountId, request.params.id);
      if (!failure) throw new EsignError('RESOURCE_NOT_FOUND', 'No such failure in this account.');
      if ((await r.requeueFailures(accountId, [failure.envelope_id], ctx.now())).length > 0) connect.worker.wake();
      return undefined;
    }));

  app.post<IdParams>('/console/connect/failures/:id/delete', async (request, reply) =>
    action(request, reply, async (accountId) => {
      await r.discardFailure(accountId, request.params.id);
      return undefined;
    }));
}
