/**
 * What keeps /verify from being a CPU sink: per client address, `perWindow` checks per window
 * (fixed windows; the map is swept as windows pass), and at most `concurrent` files being
 * checked at once across everyone (the rest are told to come back, never queued unbounded).
 */
export class VerifyLimiter {
  readonly #perWindow: number;
  readonly #windowMs: number;
  readonly #concurrent: number;
  readonly #clock: () => number;
  #windowStart = 0;
  readonly #counts = new Map<string, number>();
  #running = 0;

  constructor(options: { perWindow: number; windowMs: number; concurrent: number; clock?: () => number }) {
    this.#perWindow = options.perWindow;
    this.#windowMs = options.windowMs;
    this.#concurrent = options.concurrent;
    this.#clock = options.clock ?? Date.now;
  }

  /** 'ok' and a release function, or why not; the caller must release what it took. */
  take(client: string): { ok: true; release: () => void } | { ok: false; reason: 'rate' | 'busy'; retryAfterS: number } {
    const now = this.#clock();
    if (now - this.#windowStart >= this.#windowMs) {
      this.#windowStart = now;
      this.#counts.clear();
    }
    const retryAfterS = Math.max(1, Math.ceil((this.#windowStart + this.#windowMs - now) / 1000));
    const used = this.#counts.get(client) ?? 0;
    if (used >= this.#perWindow) return { ok: false, reason: 'rate', retryAfterS };
    if (this.#running >= this.#concurrent) return { ok: false, reason: 'busy', retryAfterS: 2 };
    this.#counts.set(client, used + 1);
    this.#running += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        this.#running -= 1;
      },
    };
  }
}
