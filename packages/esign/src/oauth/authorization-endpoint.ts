import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { randomUUID } from 'node:crypto';
import type { EsignContext } from '../context.ts';
import { loginPage } from '../web/login-page.ts';
import { expiryAfter, LIFETIMES } from '../domain/lifetimes.ts';
import { scopesCovered } from '../domain/scopes.ts';
import { OAuthError } from '../errors.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { UserRow } from '../store/schema.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { sessionUser } from '../web/session.ts';
import { authorizationParamsOf, parseAuthorizationParams, redirectWith, resolveClient, type AuthorizationRequest, type TrustedClient } from './authorization-request.ts';
import { authorizationErrorPage, consentPage } from './pages.ts';

const HTML = 'text/html; charset=utf-8';

/** GET /oauth/auth (login, then consent unless granted) and POST /oauth/auth/decision. */
export function registerAuthorizationEndpoint(app: FastifyInstance, ctx: EsignContext): void {
  /** Resolves the client, or answers with the error page (never a redirect). */
  async function trustedClient(params: unknown, reply: FastifyReply): Promise<TrustedClient | undefined> {
    try {
      return await resolveClient(ctx, params);
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      await reply.code(err.status === 401 ? 400 : err.status).type(HTML).header('cache-control', 'no-store')
        .send(authorizationErrorPage(err.error, err.description));
      return undefined;
    }
  }

  /** Issues a single-use code bound to client, user, redirect URI, scopes and PKCE challenge. */
  async function issueCode(request: AuthorizationRequest, user: UserRow): Promise<string> {
    const code = newSecretToken();
    const now = ctx.now();
    await ctx.store.oauth.insertCode({
      code_hash: sha256Hex(code),
      app_id: request.app.id,
      user_id: user.id,
      grant_id: randomUUID(),
      redirect_uri: request.redirectUri,
      scopes: request.scopes.join(' '),
      code_challenge: request.codeChallenge ?? null,
      expires_at: expiryAfter(now, LIFETIMES.authorizationCode),
      consumed_at: null,
      created_at: now.toISOString(),
    });
    return code;
  }

  async function handle(request: FastifyRequest, reply: FastifyReply, params: unknown, decision: 'allow' | 'deny' | undefined) {
    reply.header('cache-control', 'no-store');
    const client = await trustedClient(params, reply);
    if (!client) return reply;
    let authz: AuthorizationRequest;
    try {
      authz = { ...client, ...parseAuthorizationParams(params) };
    } catch (err) {
      if (!(err instanceof OAuthError)) throw err;
      return reply.redirect(redirectWith(client.redirectUri, { error: err.error, error_description: err.description, state: formField(params, 'state') }), 303);
    }
    const user = await sessionUser(ctx, request);
    if (!user) {
      // The login form posts to /login and comes back to this very URL.
      const returnTo = request.method === 'GET' ? request.url : `/oauth/auth?${new URLSearchParams(authorizationParamsOf(authz)).toString()}`;
      return reply.type(HTML).send(loginPage({ csrf: csrfTokenFor(ctx, request, reply), returnTo, appName: client.app.name }));
    }
    if (decision === 'deny') {
      return reply.redirect(redirectWith(authz.redirectUri, { error: 'access_denied', error_description: 'The user denied the request.', state: authz.state }), 303);
    }
    if (decision === 'allow') {
      await ctx.store.oauth.grantConsent(user.id, authz.app.id, authz.scopes, ctx.now());
    } else {
      const granted = await ctx.store.oauth.consentedScopes(user.id, authz.app.id);
      if (!granted || !scopesCovered(authz.scopes, granted)) {
        return reply.type(HTML).send(consentPage({
          csrf: csrfTokenFor(ctx, request, reply),
          user,
          appName: authz.app.name,
          scopes: authz.scopes,
          hidden: authorizationParamsOf(authz),
          // After "Use another account", the login page resumes this same request.
          returnTo: `/oauth/auth?${new URLSearchParams(authorizationParamsOf(authz)).toString()}`,
        }));
      }
    }
    const code = await issueCode(authz, user);
    return reply.redirect(redirectWith(authz.redirectUri, { code, state: authz.state }), decision ? 303 : 302);
  }

  app.get('/oauth/auth', async (request, reply) => handle(request, reply, request.query, undefined));

  app.post('/oauth/auth/decision', async (request, reply) => {
    assertCsrf(request);
    const decision = formField(request.body, 'decision');
    if (decision !== 'allow' && decision !== 'deny') throw new OAuthError('INVALID_REQUEST', 'decision must be allow or deny.');
    return handle(request, reply, request.body, decision);
  });
}
