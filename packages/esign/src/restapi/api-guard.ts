import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { ApiRateLimiter, type ApiRateLimitOptions } from './api-rate-limit.ts';
import { assertAccountMember, authenticateBearer } from './bearer-auth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The API guard's per-account counters (their size is what operators and tests watch). */
    apiRateLimiter: ApiRateLimiter;
  }
}

/** The eSignature REST surface: every path under it is guarded. */
const REST_PREFIX = '/restapi/';

/**
 * The one gate in front of /restapi, run as an onRequest hook, so it decides before Fastify reads
 * a byte of the body (envelopes may be 36 MB): a live token with the `signature` scope, then the
 * token's user a member of the account in the path, then that account's rate limit. A route
 * cannot forget it, and junk from strangers costs one token lookup and nothing else: no body
 * parse, no rate-limit bucket.
 */
export function installApiGuard(app: FastifyInstance, ctx: EsignContext, limits: Omit<ApiRateLimitOptions, 'now'>): ApiRateLimiter {
  const limiter = new ApiRateLimiter({ ...limits, now: ctx.now });
  app.decorateRequest('principal', null);
  app.decorate('apiRateLimiter', limiter);
  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!request.url.startsWith(REST_PREFIX)) return;
    const principal = await authenticateBearer(ctx, request.headers.authorization);
    const accountId = (request.params as { accountId?: string } | undefined)?.accountId;
    if (accountId !== undefined) {
      await assertAccountMember(ctx, principal, accountId);
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
