// One rate-limiting instance's periods with everything a request reuses, worked out when the
// configuration loads (kong/plugins/rate-limiting/handler.lua access): each period's limit, its
// X-RateLimit-* header names and its limit as text; what a request adds is only its counters'
// keys, their usages and the headers' remaining counts.
import type { CounterAsk } from './counter-store.ts';
import { EXPIRATION, PERIODS, windowStart, type Period } from './periods.ts';

const TITLE: Readonly<Record<Period, string>> = { second: 'Second', minute: 'Minute', hour: 'Hour', day: 'Day', month: 'Month', year: 'Year' };

/**
 * Where the headers go (the response head in header_filter, a list in tests): the names are the
 * plan's own and the values numbers, so the head takes them without its per-call checks.
 */
export type HeaderSink = { setKnown(lower: string, name: string, value: string): void };

/** What access counted for a request and header_filter turns into headers. */
export type RateLimitUsage = { readonly usages: readonly number[]; readonly starts: readonly number[]; readonly now: number };

export class RateLimitPlan {
  readonly periods: readonly Period[];
  readonly limits: readonly number[];
  readonly #limitNames: readonly string[];
  readonly #remainingNames: readonly string[];
  readonly #limitLowers: readonly string[];
  readonly #remainingLowers: readonly string[];
  readonly #limitTexts: readonly string[];
  readonly #prefix: string;
  // The last identifier's counters for the last windows: under traffic from one client (or a
  // limit by service) consecutive requests reuse the same keys, already hashed by the Map.
  #lastId: string | undefined;
  #startsSecond = NaN;
  #starts: readonly number[] = [];
  #lastStarts: readonly number[] = [];
  #lastAsks: CounterAsk[] = [];

  /** `scope`: Kong's `<route id>:<service id>` of the instance. */
  constructor(limitOf: (p: Period) => number | null, scope: string) {
    this.periods = PERIODS.filter((p) => limitOf(p) !== null);
    this.limits = this.periods.map((p) => limitOf(p)!);
    this.#limitNames = this.periods.map((p) => `X-RateLimit-Limit-${TITLE[p]}`);
    this.#remainingNames = this.periods.map((p) => `X-RateLimit-Remaining-${TITLE[p]}`);
    this.#limitLowers = this.#limitNames.map((n) => n.toLowerCase());
    this.#remainingLowers = this.#remainingNames.map((n) => n.toLowerCase());
    this.#limitTexts = this.limits.map(String);
    this.#prefix = `ratelimit:${scope}:`;
  }

  /**
   * Each period's window start at `nowMs` (Kong's get_timestamps). Every window starts on a
   * whole second, so the list is the same all through a second: made once per second (the
   * caller must not change it).
   */
  starts(nowMs: number): readonly number[] {
    const second = Math.floor(nowMs / 1000);
    if (second === this.#startsSecond) return this.#starts;
    const out: number[] = [];
    for (const p of this.periods) out.push(windowStart(p, nowMs));
    this.#startsSecond = second;
    this.#starts = out;
    return out;
  }

  /**
   * The counters of `id` in the windows starting at `starts` (Kong's key layout). `starts` is
   * the list starts() gave, the same one all through a second: the last keys are reused while
   * both the id and that list stay.
   */
  asks(id: string, starts: readonly number[]): readonly CounterAsk[] {
    if (id === this.#lastId && starts === this.#lastStarts) return this.#lastAsks;
    const asks: CounterAsk[] = [];
    for (let i = 0; i < this.periods.length; i++) {
      const p = this.periods[i]!;
      asks.push({ key: this.#prefix + id + ':' + starts[i]! + ':' + p, limit: this.limits[i]!, expireSeconds: EXPIRATION[p] });
    }
    this.#lastId = id;
    this.#lastStarts = starts;
    this.#lastAsks = asks;
    return asks;
  }

  /** The period that refuses the request (the last one exhausted, as Kong), or -1. */
  stopAt(usages: readonly number[]): number {
    let stop = -1;
    for (let i = 0; i < usages.length; i++) if (this.limits[i]! - usages[i]! <= 0) stop = i;
    return stop;
  }

  /** Kong's X-RateLimit-*, RateLimit-* and, when refused, Retry-After headers for these usages. */
  setHeaders(out: HeaderSink, u: RateLimitUsage): void {
    const stop = this.stopAt(u.usages);
    let limitText = '0';
    let window = 0;
    let remaining = Infinity;
    let remainingText = 'Infinity';
    let reset = 1;
    for (let i = 0; i < this.periods.length; i++) {
      const p = this.periods[i]!;
      let current = this.limits[i]! - u.usages[i]!;
      if (stop === -1 || stop === i) current -= 1;
      current = Math.max(0, current);
      // The most constrained period speaks for RateLimit-*; on a tie, the longer window.
      const currentText = String(current);
      if (current < remaining || (current === remaining && EXPIRATION[p] > window)) {
        limitText = this.#limitTexts[i]!;
        window = EXPIRATION[p];
        remaining = current;
        remainingText = currentText;
        reset = Math.max(1, window - Math.floor((u.now - u.starts[i]!) / 1000));
      }
      out.setKnown(this.#limitLowers[i]!, this.#limitNames[i]!, this.#limitTexts[i]!);
      out.setKnown(this.#remainingLowers[i]!, this.#remainingNames[i]!, currentText);
    }
    out.setKnown('ratelimit-limit', 'RateLimit-Limit', limitText);
    out.setKnown('ratelimit-remaining', 'RateLimit-Remaining', remainingText);
    out.setKnown('ratelimit-reset', 'RateLimit-Reset', String(reset));
    if (stop !== -1) out.setKnown('retry-after', 'Retry-After', String(reset));
  }
}
