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
  /**
   * Where the instances sharing a database pool their hourly counts (store/api-usage-repository.ts):
   * `sync()` adds this instance's calls since its last sync and learns every instance's total.
   * Without it the count is this instance's alone.
   */
  shared?: SharedApiUsage;
};

/** The hourly counts of every instance, kept where all of them see it. */
export type SharedApiUsage = {
  /** Adds each account's new calls to the hour's count; answers each account's count of the hour, all instances together. */
  add(hourStart: Date, calls: ReadonlyMap<string, number>): Promise<Map<string, number>>;
};

export const DOCUSIGN_RATE_LIMITS = { hourly: 3000, burst: 500, burstWindowMs: 30_000 } as const;

/**
 * hourCount: this instance's calls this hour; synced: how many of them the shared count holds;
 * others: the other instances' calls this hour, as the last sync read them.
 */
type Bucket = { hourCount: number; synced: number; others: number; burstStart: number; burstCount: number };

/**
 * Fixed-window counting per verified account, O(1) per call, in memory; with `shared`, each
 * instance adds its calls to the database's count about once a second (`sync`) and counts the
 * other instances' calls as they were then, so N instances let an account through at most its
 * limit plus what the others admitted since their last sync, not N times the limit. The burst
 * window stays per instance: it protects the instance. Only callers the API guard has
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
      b = { hourCount: 0, synced: 0, others: 0, burstStart, burstCount: 0 };
      this.#buckets.set(accountId, b);
    }
    if (b.burstStart !== burstStart) {
      b.burstStart = burstStart;
      b.burstCount = 0;
    }
    const refusal = b.hourCount + b.others >= this.options.hourly ? 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED' : b.burstCount >= this.options.burst ? 'BURST_APIINVOCATION_LIMIT_EXCEEDED' : undefined;
    if (refusal === undefined) {
      b.hourCount++;
      b.burstCount++;
    }
    const headers = {
      'x-ratelimit-limit': String(this.options.hourly),
      'x-ratelimit-remaining': String(Math.max(0, this.options.hourly - b.hourCount - b.others)),
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

  /**
   * Adds this instance's calls since the last sync to the shared count and takes in the other
   * instances' (a no-op without `shared`, or with nothing new to add). Calls counted while it
   * runs are added by the next sync; a failed sync leaves them to the next one.
   */
  async sync(): Promise<void> {
    const shared = this.options.shared;
    if (shared === undefined) return;
    const hourStart = this.#hourStart;
    const calls = new Map<string, number>();
    for (const [accountId, b] of this.#buckets) if (b.hourCount > b.synced) calls.set(accountId, b.hourCount - b.synced);
    if (calls.size === 0) return;
    const totals = await shared.add(new Date(hourStart), calls);
    // The hour turned meanwhile: what was read is last hour's.
    if (this.#hourStart !== hourStart) return;
    for (const [accountId, added] of calls) {
      const b = this.#buckets.get(accountId);
      if (b === undefined) continue;
      b.synced += added;
      b.others = Math.max(0, (totals.get(accountId) ?? 0) - b.synced);
    }
  }
}
