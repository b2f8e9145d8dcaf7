import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {} from './bearer-auth.ts';
import { EsignError } from '../errors.ts';

/**
 * DocuSign's API limits (docusign.com/blog/developers/dsdev-from-the-trenches-api-rate-limits):
 * 3,000 calls per account per clock hour and a 500-call burst per 30 s, reported on every answer
 * in X-RateLimit-Limit / -Remaining / -Reset (Unix seconds of the next window) and
 * X-BurstLimit-Limit / -Remaining; past a limit every call fails until the window turns.
 */
export type ApiRateLimitOptions = { hourly: number; burst: number; burstWindowMs: number; now: () => Date };

export const DOCUSIGN_RATE_LIMITS = { hourly: 3000, burst: 500, burstWindowMs: 30_000 } as const;

type Window = { start: number; count: number };
type Bucket = { hour: Window; burst: Window };

/** Pure counting: one bucket per account, fixed windows (clock hours, 30 s slices). */
export class ApiRateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  constructor(readonly options: ApiRateLimitOptions) {}

  #bucket(accountId: string, nowMs: number): Bucket {
    const hourStart = nowMs - (nowMs % 3_600_000);
    const burstStart = nowMs - (nowMs % this.options.burstWindowMs);
    let b = this.#buckets.get(accountId);
    if (b === undefined) {
      // A new hour drops every account's counts at once, so the map never outgrows one hour's callers.
      for (const [key, old] of this.#buckets) if (old.hour.start !== hourStart) this.#buckets.delete(key);
      b = { hour: { start: hourStart, count: 0 }, burst: { start: burstStart, count: 0 } };
      this.#buckets.set(accountId, b);
    }
    if (b.hour.start !== hourStart) b.hour = { start: hourStart, count: 0 };
    if (b.burst.start !== burstStart) b.burst = { start: burstStart, count: 0 };
    return b;
  }

  /** The error code to refuse with, or undefined when the account may call. */
  refusal(accountId: string): 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED' | 'BURST_APIINVOCATION_LIMIT_EXCEEDED' | undefined {
    const b = this.#bucket(accountId, this.options.now().getTime());
    if (b.hour.count >= this.options.hourly) return 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED';
    if (b.burst.count >= this.options.burst) return 'BURST_APIINVOCATION_LIMIT_EXCEEDED';
    return undefined;
  }

  /** Counts one call; returns the headers for its answer. */
  count(accountId: string, counted: boolean): Record<string, string> {
    const b = this.#bucket(accountId, this.options.now().getTime());
    if (counted) {
      b.hour.count++;
      b.burst.count++;
    }
    return {
      'x-ratelimit-limit': String(this.options.hourly),
      'x-ratelimit-remaining': String(Math.max(0, this.options.hourly - b.hour.count)),
      'x-ratelimit-reset': String((b.hour.start + 3_600_000) / 1000),
      'x-burstlimit-limit': String(this.options.burst),
      'x-burstlimit-remaining': String(Math.max(0, this.options.burst - b.burst.count)),
    };
  }
}

const ACCOUNT_PATH = /^\/restapi\/v2\.1\/accounts\/([^/?]{1,100})/;

/**
 * Limits /restapi/v2.1/accounts/{accountId}/… per account. Only calls made with a valid token by
 * a member of the account count (the bearer and account preHandlers decide), so nobody can
 * spend another account's budget with junk requests. Counters live in this process: with N
 * esign instances behind the gateway an account can make up to N × the limit (docs/reliability.md).
 */
export function installApiRateLimit(app: FastifyInstance, options: ApiRateLimitOptions): ApiRateLimiter {
  const limiter = new ApiRateLimiter(options);
  const accountOf = (request: FastifyRequest) => ACCOUNT_PATH.exec(request.url)?.[1];
  app.addHook('onRequest', async (request: FastifyRequest, _reply: FastifyReply) => {
    const accountId = accountOf(request);
    if (accountId === undefined) return;
    const code = limiter.refusal(accountId);
    if (code === undefined) return;
    throw new EsignError(code, `The limit is ${code.startsWith('HOURLY') ? `${options.hourly} per hour` : `${options.burst} per ${options.burstWindowMs / 1000} seconds`}.`);
  });
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const accountId = accountOf(request);
    if (accountId === undefined) return payload;
    if (reply.statusCode === 429) {
      reply.headers(limiter.count(accountId, false));
      return payload;
    }
    // A caller with no valid token, or who is not a member of the account, does not count.
    const member = request.principal !== null && !(reply.statusCode === 400 && typeof payload === 'string' && payload.includes('"USER_DOES_NOT_BELONG_TO_SPECIFIED_ACCOUNT"'));
    if (member) reply.headers(limiter.count(accountId, true));
    return payload;
  });
  return limiter;
}
