import { EsignError } from '../errors.ts';

/**
 * DocuSign's API limits (docusign.com/blog/developers/dsdev-from-the-trenches-api-rate-limits):
 * 3,000 calls per account per clock hour and a 500-call burst per 30 s, reported on every answer
 * in X-RateLimit-Limit / -Remaining / -Reset (Unix seconds of the next window) and
 * X-BurstLimit-Limit / -Remaining; past a limit every call fails until the window turns.
 */
export type ApiRateLimitOptions = {
  hourly: number;
  burst: number;
  burstWindowMs: number;
  now: () => Date;
  /** Accounts counted at once (default 100,000); past it the longest-counted account is forgotten. */
  maxAccounts?: number;
};

export const DOCUSIGN_RATE_LIMITS = { hourly: 3000, burst: 500, burstWindowMs: 30_000 } as const;

type Bucket = { hourCount: number; burstStart: number; burstCount: number };

/**
 * Fixed-window counting per verified account, O(1) per call. Only callers the API guard has
 * already authenticated as members reach it, so junk requests cannot create buckets; the
 * table is emptied whole when the clock hour turns and is capped besides (a Map keeps insertion
 * order, so the oldest bucket is the first key).
 */
export class ApiRateLimiter {
  readonly #buckets = new Map<string, Bucket>();
  readonly #maxAccounts: number;
  #hourStart = Number.NaN;
  constructor(readonly options: ApiRateLimitOptions) {
    this.#maxAccounts = options.maxAccounts ?? 100_000;
  }

  /** Accounts currently counted. */
  get size(): number {
    return this.#buckets.size;
  }

  /**
   * Counts one call of a verified account. Returns the headers for its answer; throws DocuSign's
   * 429 (not counted) while a limit is spent, the headers attached to the error.
   */
  take(accountId: string): Record<string, string> {
    const nowMs = this.options.now().getTime();
    const hourStart = nowMs - (nowMs % 3_600_000);
    if (hourStart !== this.#hourStart) {
      this.#buckets.clear();
      this.#hourStart = hourStart;
    }
    const burstStart = nowMs - (nowMs % this.options.burstWindowMs);
    let b = this.#buckets.get(accountId);
    if (b === undefined) {
      if (this.#buckets.size >= this.#maxAccounts) this.#buckets.delete(this.#buckets.keys().next().value as string);
      b = { hourCount: 0, burstStart, burstCount: 0 };
      this.#buckets.set(accountId, b);
    }
    if (b.burstStart !== burstStart) {
      b.burstStart = burstStart;
      b.burstCount = 0;
    }
    const refusal = b.hourCount >= this.options.hourly ? 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED' : b.burstCount >= this.options.burst ? 'BURST_APIINVOCATION_LIMIT_EXCEEDED' : undefined;
    if (refusal === undefined) {
      b.hourCount++;
      b.burstCount++;
    }
    const headers = {
      'x-ratelimit-limit': String(this.options.hourly),
      'x-ratelimit-remaining': String(Math.max(0, this.options.hourly - b.hourCount)),
      'x-ratelimit-reset': String((hourStart + 3_600_000) / 1000),
      'x-burstlimit-limit': String(this.options.burst),
      'x-burstlimit-remaining': String(Math.max(0, this.options.burst - b.burstCount)),
    };
    if (refusal !== undefined) {
      const limit = refusal.startsWith('HOURLY') ? `${this.options.hourly} per hour` : `${this.options.burst} per ${this.options.burstWindowMs / 1000} seconds`;
      throw Object.assign(new EsignError(refusal, `The limit is ${limit}.`), { headers });
    }
    return headers;
  }
}
