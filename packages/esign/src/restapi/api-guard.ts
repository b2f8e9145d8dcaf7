import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { deniedBecause, routeNeed } from '../domain/users/route-permission.ts';
import { rightsOf, type Rights } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
import { envelopeAccessDenied } from '../domain/envelope/envelope-access.ts';
import { envelopeRelation } from '../store/envelope-relation.ts';
import { UserAuthorizationsRepository } from '../store/user-authorizations-repository.ts';
import { ApiUsageRepository } from '../store/api-usage-repository.ts';
import { ACT_ON_BEHALF_HEADER, onBehalfHeader, resolveOnBehalf, type OnBehalf } from './act-on-behalf.ts';
import { ApiRateLimiter, type ApiRateLimitOptions } from './api-rate-limit.ts';
import { authenticateBearer } from './bearer-auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API guard's per-account counters (their size is what operators and tests watch). */
    apiRateLimiter: ApiRateLimiter;
  }
  interface FastifyRequest {
    /** What the member's permission profile allows in the account of the path (set by the API guard). */
    rights: Rights | null;
    /** Set when X-DocuSign-Act-On-Behalf was honoured: `principal.userId` is then the principal's, this names the agent. */
    onBehalf: OnBehalf | null;
    /**
     * The user whose sent and received envelopes are all the request may list, when their
     * profile does not reach the account's envelopes (domain/envelope/envelope-access.ts); null
     * when it does. Every envelope listing passes it as `visibleTo`.
     */
    envelopeViewer: string | null;
  }
}

/** The eSignature REST surface: every path under it is guarded. */
const REST_PREFIX = '/restapi/';
const ACCOUNT_ROUTE = '/restapi/v2.1/accounts/:accountId';
/** Routes about one envelope, after ACCOUNT_ROUTE; an unknown id is left to the route (ENVELOPE_DOES_NOT_EXIST). */
const ENVELOPE_ROUTE = '/envelopes/:envelopeId';
const READ_METHODS = new Set(['GET', 'HEAD']);
/** How often an instance adds its API calls to the shared count (restapi/api-rate-limit.ts). */
const SYNC_INTERVAL_MS = 1_000;

/**
 * The one gate in front of /restapi, run as an onRequest hook, so it decides before Fastify reads
 * a byte of the body (envelopes may be 36 MB): a live token with the `signature` scope, then the
 * token's user an active member of the account in the path, whose permission profile allows the
 * route (domain/users/route-permission.ts; read with each request, so a removal or a changed
 * profile applies to the member's tokens at once), then that account's rate limit. A route
 * cannot forget it, and junk from strangers costs one token lookup and nothing else: no body
 * parse, no rate-limit bucket.
 *
 * X-DocuSign-Act-On-Behalf (shared access, docs/esign-shared-access.md) is read here and
 * nowhere else: when the token's user holds a live authorization from the principal it names,
 * covering the route, the request goes on as the principal (their profile's rights, their
 * envelopes) with `request.onBehalf` naming both, and each such request leaves an audit line;
 * otherwise it is refused. OAuth and console routes never read the header.
 */
export function installApiGuard(app: FastifyInstance, ctx: EsignContext, limits: Omit<ApiRateLimitOptions, 'now'>): ApiRateLimiter {
  const limiter = new ApiRateLimiter({ ...limits, now: ctx.now, shared: new ApiUsageRepository(ctx.store.db) });
  // The instances sharing the database pool their hourly counts about once a second; the last
  // calls are added when the server closes.
  let syncing: Promise<void> | undefined;
  const sync = (): Promise<void> => (syncing ??= limiter.sync().catch((err: unknown) => app.log.warn({ err }, 'API usage not shared this time')).finally(() => (syncing = undefined)));
  const timer = setInterval(() => void sync(), SYNC_INTERVAL_MS).unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await syncing;
    await sync();
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('rights', null);
  app.decorateRequest('onBehalf', null);
  app.decorateRequest('envelopeViewer', null);
  const authorizations = new UserAuthorizationsRepository(ctx.store.db);
  app.decorate('apiRateLimiter', limiter);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // The path as text (canonical: web/canonical-url.ts), or else the route it matched.
    if (!request.url.startsWith(REST_PREFIX) && !(request.routeOptions.url ?? '').startsWith(REST_PREFIX)) return;
    const token = await authenticateBearer(ctx, request.headers.authorization);
    let principal = token;
    const asUserId = onBehalfHeader(request.headers[ACT_ON_BEHALF_HEADER]);
    const accountId = (request.params as { accountId?: string } | undefined)?.accountId;
    if (accountId === undefined && asUserId !== undefined) throw new EsignError('USER_LACKS_PERMISSIONS', 'X-DocuSign-Act-On-Behalf applies only to calls in an account.');
    if (accountId !== undefined) {
      let settings = accountId.length > 100 ? undefined : await ctx.store.accounts.memberSettings(token.userId, accountId);
      if (settings === undefined) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
      const pattern = request.routeOptions.url ?? '';
      const route = pattern.startsWith(ACCOUNT_ROUTE) ? pattern.slice(ACCOUNT_ROUTE.length) : undefined;
      if (asUserId !== undefined && asUserId !== token.userId) {
        // The agent's own profile must allow the API at all; then the call is the principal's.
        const denied = deniedBecause(rightsOf(settings), 'none');
        if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', denied);
        const resolved = await resolveOnBehalf(ctx, authorizations, { accountId, agentUserId: token.userId, principalUserId: asUserId, method: request.method, route });
        settings = resolved.principalSettings;
        principal = { ...token, userId: asUserId };
        request.onBehalf = resolved.onBehalf;
      }
      const rights = rightsOf(settings);
      if (route !== undefined) {
        const userId = (request.params as { userId?: string }).userId;
        const denied = deniedBecause(rights, routeNeed({ method: request.method, route, userId, actorId: principal.userId }));
        if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', denied);
      }
      request.rights = rights;
      if (!rights.allEnvelopes) {
        request.envelopeViewer = principal.userId;
        // One envelope named by the path: only one the member sent, or received to read.
        const envelopeId = (request.params as { envelopeId?: string }).envelopeId;
        if (envelopeId !== undefined && route?.startsWith(ENVELOPE_ROUTE) === true) {
          const relation = envelopeId.length > 100 ? undefined : await envelopeRelation(ctx.store.db, accountId, envelopeId, principal.userId);
          const denied = relation && envelopeAccessDenied(relation, READ_METHODS.has(request.method) ? 'read' : 'change');
          if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', denied);
        }
      }
      try {
        reply.headers(limiter.take(accountId));
      } catch (err) {
        reply.headers((err as { headers?: Record<string, string> }).headers ?? {});
        throw err;
      }
    }
    request.principal = principal;
  });
  // The shared-access audit: every request an agent made as a principal, with its outcome.
  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const onBehalf = request.onBehalf;
    if (!onBehalf) return;
    const accountId = (request.params as { accountId?: string }).accountId ?? '';
    const route = (request.routeOptions.url ?? '').slice(ACCOUNT_ROUTE.length);
    request.log.info({ agentUserId: onBehalf.agentUserId, principalUserId: onBehalf.principalUserId, route }, 'acted on behalf of another user');
    await authorizations.recordUse({ ...onBehalf, at: ctx.now(), accountId, method: request.method, route, statusCode: reply.statusCode });
  });
  return limiter;
}
