import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { deniedBecause, routeNeed } from '../domain/users/route-permission.ts';
import { rightsOf, type Rights } from '../domain/users/role-settings.ts';
import { EsignError } from '../errors.ts';
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
  }
}

/** The eSignature REST surface: every path under it is guarded. */
const REST_PREFIX = '/restapi/';
const ACCOUNT_ROUTE = '/restapi/v2.1/accounts/:accountId';

/**
 * The one gate in front of /restapi, run as an onRequest hook, so it decides before Fastify reads
 * a byte of the body (envelopes may be 36 MB): a live token with the `signature` scope, then the
 * token's user an active member of the account in the path, whose permission profile allows the
 * route (domain/users/route-permission.ts; read with each request, so a removal or a changed
 * profile applies to the member's tokens at once), then that account's rate limit. A route
 * cannot forget it, and junk from strangers costs one token lookup and nothing else: no body
 * parse, no rate-limit bucket.
 */
export function installApiGuard(app: FastifyInstance, ctx: EsignContext, limits: Omit<ApiRateLimitOptions, 'now'>): ApiRateLimiter {
  const limiter = new ApiRateLimiter({ ...limits, now: ctx.now });
  app.decorateRequest('principal', null);
  app.decorateRequest('rights', null);
  app.decorate('apiRateLimiter', limiter);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith(REST_PREFIX)) return;
    const principal = await authenticateBearer(ctx, request.headers.authorization);
    const accountId = (request.params as { accountId?: string } | undefined)?.accountId;
    if (accountId !== undefined) {
      const settings = accountId.length > 100 ? undefined : await ctx.store.accounts.memberSettings(principal.userId, accountId);
      if (settings === undefined) throw new EsignError('USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT');
      const rights = rightsOf(settings);
      const pattern = request.routeOptions.url ?? '';
      if (pattern.startsWith(ACCOUNT_ROUTE)) {
        const userId = (request.params as { userId?: string }).userId;
        const denied = deniedBecause(rights, routeNeed({ method: request.method, route: pattern.slice(ACCOUNT_ROUTE.length), userId, actorId: principal.userId }));
        if (denied) throw new EsignError('USER_LACKS_PERMISSIONS', denied);
      }
      request.rights = rights;
      try {
        reply.headers(limiter.take(accountId));
      } catch (err) {
        reply.headers((err as { headers?: Record<string, string> }).headers ?? {});
        throw err;
      }
    }
    request.principal = principal;
  });
  return limiter;
}
