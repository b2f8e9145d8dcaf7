import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { validateRedirectUri } from '../domain/redirect-uri.ts';
import { EsignError } from '../errors.ts';
import type { AppRow, UserRow } from '../store/schema.ts';
import { generateRsaKeyPair, newAppSecret, normalizeRsaPublicKey } from '../use-cases/app-credentials.ts';
import { createApp } from '../use-cases/create-app.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { sessionUser } from '../web/session.ts';
import { assertConsoleRight, hasConsoleRight } from './console-rights.ts';
import { appPage, consoleHomePage, type ShownOnce } from './pages.ts';

const HTML = 'text/html; charset=utf-8';
type AppParams = { Params: { appId: string } };
type ItemParams = { Params: { appId: string; itemId: string } };

/** The developer console: apps, integration keys, secrets, redirect URIs, RSA keys. */
export function registerConsoleRoutes(app: FastifyInstance, ctx: EsignContext): void {
  /** The signed-in user, or a redirect to the login page (then back here). */
  async function requireUser(request: FastifyRequest, reply: FastifyReply): Promise<UserRow | undefined> {
    const user = await sessionUser(ctx, request);
    if (!user) {
      const back = request.method === 'GET' ? request.url : '/console';
      await reply.redirect(`/login?return_to=${encodeURIComponent(back)}`, 303);
    }
    return user;
  }

  /**
   * The app when the user belongs to its account (APP_NOT_FOUND otherwise: no existence leak)
   * and may manage that account. An app's redirect URIs, secrets and RSA keys decide who gets
   * tokens as the account's users, so they are the administrators' (DocuSign's Apps and Keys
   * page is theirs too): any member who could add a redirect URI or a key could take the tokens
   * of every user who consented to the app.
   */
  async function ownApp(user: UserRow, appId: string): Promise<AppRow> {
    const found = await ctx.store.apps.findApp(appId);
    if (!found || !(await ctx.store.accounts.isMember(user.id, found.account_id))) throw new EsignError('APP_NOT_FOUND');
    await assertConsoleRight(ctx, user.id, found.account_id, 'manageAccount');
    return found;
  }

  async function renderApp(request: FastifyRequest, reply: FastifyReply, user: UserRow, target: AppRow, extra: { shownOnce?: ShownOnce; error?: string; status?: number } = {}) {
    const accounts = await ctx.store.accounts.accountsOf(user.id);
    const page = appPage({
      user,
      csrf: csrfTokenFor(ctx, request, reply),
      app: target,
      account: accounts.find((a) => a.accountId === target.account_id),
      secrets: await ctx.store.apps.listSecrets(target.id),
      redirectUris: await ctx.store.apps.redirectUris(target.id),
      rsaKeys: await ctx.store.apps.listRsaKeys(target.id),
      publicUrl: ctx.config.publicUrl,
      authHost: ctx.authHost,
      shownOnce: extra.shownOnce,
      error: extra.error,
    });
    // no-store: a secret or private key on this page must not be kept by any cache.
    return reply.code(extra.status ?? 200).type(HTML).header('cache-control', 'no-store').send(page);
  }

  /** Runs a form action; an exposed EsignError is shown on the app page instead of an error page. */
  async function appAction(request: FastifyRequest, reply: FastifyReply, appId: string, action: (user: UserRow, target: AppRow) => Promise<ShownOnce | undefined>) {
    const user = await requireUser(request, reply);
    if (!user) return reply;
    assertCsrf(request);
    const target = await ownApp(user, appId);
    try {
      const shownOnce = await action(user, target);
      if (shownOnce) return await renderApp(request, reply, user, target, { shownOnce });
      return await reply.redirect(`/console/apps/${target.id}`, 303);
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose) throw err;
      return renderApp(request, reply, user, target, { error: err.message, status: err.status });
    }
  }

  app.get('/', async (_request, reply) => reply.redirect('/console', 302));

  app.get('/console', async (request, reply) => {
    const user = await requireUser(request, reply);
    if (!user) return reply;
    const accounts = await ctx.store.accounts.accountsOf(user.id);
    const managed = [];
    for (const a of accounts) if (await hasConsoleRight(ctx, user.id, a.accountId, 'manageAccount')) managed.push(a.accountId);
    const page = consoleHomePage({
      user,
      csrf: csrfTokenFor(ctx, request, reply),
      account: accounts[0],
      apps: await ctx.store.apps.listApps(managed),
      mayAddApp: accounts[0] !== undefined && managed.includes(accounts[0].accountId),
      publicUrl: ctx.config.publicUrl,
      authHost: ctx.authHost,
    });
    return reply.type(HTML).header('cache-control', 'no-store').send(page);
  });

  app.post('/console/apps', async (request, reply) => {
    const user = await requireUser(request, reply);
    if (!user) return reply;
    assertCsrf(request);
    // The app joins the default account (use-cases/create-app.ts): its administrators' to add.
    const account = (await ctx.store.accounts.accountsOf(user.id))[0];
    if (account) await assertConsoleRight(ctx, user.id, account.accountId, 'manageAccount');
    const { app: created } = await createApp(ctx.store, { userId: user.id, name: formField(request.body, 'name') ?? '', redirectUris: [], withSecret: false, now: ctx.now() });
    return reply.redirect(`/console/apps/${created.id}`, 303);
  });

  app.get<AppParams>('/console/apps/:appId', async (request, reply) => {
    const user = await requireUser(request, reply);
    if (!user) return reply;
    return renderApp(request, reply, user, await ownApp(user, request.params.appId));
  });

  app.post<AppParams>('/console/apps/:appId/secrets', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      const secret = newAppSecret();
      await ctx.store.apps.addSecret(target.id, secret.hash, secret.hint, ctx.now());
      return { kind: 'secret', value: secret.secret };
    }));

  app.post<ItemParams>('/console/apps/:appId/secrets/:itemId/revoke', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      await ctx.store.apps.revokeSecret(target.id, request.params.itemId, ctx.now());
      return undefined;
    }));

  app.post<AppParams>('/console/apps/:appId/redirect-uris', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      await ctx.store.apps.addRedirectUri(target.id, validateRedirectUri(formField(request.body, 'uri') ?? ''), ctx.now());
      return undefined;
    }));

  app.post<AppParams>('/console/apps/:appId/redirect-uris/remove', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      await ctx.store.apps.removeRedirectUri(target.id, formField(request.body, 'uri') ?? '');
      return undefined;
    }));

  app.post<AppParams>('/console/apps/:appId/rsa-keys/generate', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      const pair = generateRsaKeyPair();
      await ctx.store.apps.addRsaKey(target.id, pair.publicKeyPem, ctx.now());
      return { kind: 'private-key', value: pair.privateKeyPem };
    }));

  app.post<AppParams>('/console/apps/:appId/rsa-keys', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      await ctx.store.apps.addRsaKey(target.id, normalizeRsaPublicKey(formField(request.body, 'public_key') ?? ''), ctx.now());
      return undefined;
    }));

  app.post<ItemParams>('/console/apps/:appId/rsa-keys/:itemId/revoke', async (request, reply) =>
    appAction(request, reply, request.params.appId, async (_user, target) => {
      await ctx.store.apps.revokeRsaKey(target.id, request.params.itemId, ctx.now());
      return undefined;
    }));
}
