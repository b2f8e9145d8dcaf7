/** RestartBackoff's tuning, in milliseconds. */
export type RestartBackoffOptions = {
  /** The delay after the first quick death; each further one doubles it. */
  readonly baseMs: number;
  /** The longest delay. */
  readonly maxMs: number;
  /** A worker that lived this long died of an isolated fault: replaced at once, count reset. */
  readonly stableMs: number;
};

const DEFAULTS: RestartBackoffOptions = { baseMs: 100, maxMs: 10_000, stableMs: 30_000 };

/**
 * How long the primary waits before replacing a dead worker. nginx's master respawns at once;
 * so did we, and a fault every fresh worker hits (one that crashes on a request replayed by
 * clients, say) then became a fork loop burning both cores. Quick deaths back off
 * exponentially, bounded so a node recovers within seconds once the cause is gone. Pure: the
 * caller passes the times.
 */
export class RestartBackoff {
  readonly #options: RestartBackoffOptions;
  #quickDeaths = 0;

  constructor(options: Partial<RestartBackoffOptions> = {}) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** The delay before replacing a worker started at `startedAt` that died at `now`. */
  delayFor(startedAt: number, now: number): number {
    const { baseMs, maxMs, stableMs } = this.#options;
    if (now - startedAt >= stableMs) {
      this.#quickDeaths = 0;
      return 0;
    }
    this.#quickDeaths++;
    return Math.min(maxMs, baseMs * 2 ** Math.min(this.#quickDeaths - 1, 30));
  }
}
