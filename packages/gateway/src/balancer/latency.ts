import type { Address } from './address.ts';
import type { Algorithm, Clock, PeerContext } from './algorithm.ts';

// latency.lua: the EWMA decays with a 10 s time constant.
const DECAY_MS = 10_000;

type Score = { ewma: number; touchedAt: number };

/**
 * Kong's latency balancer (kong/runloop/balancer/latency.lua, peak-EWMA): each address keeps an
 * exponentially weighted moving average of its response times, `ewma·w + rtt·(1-w)` with
 * `w = exp(-Δt/10 s)`, and the pick is the lowest `ewma / weight` among the available addresses
 * not yet failed for this request. All addresses start at 0, so each gets tried early.
 */
export class Latency implements Algorithm {
  readonly #addresses: readonly Address[];
  readonly #scores: Map<Address, Score>;
  readonly #now: Clock;

  constructor(addresses: readonly Address[], now: Clock) {
    this.#addresses = addresses.filter((a) => a.weight > 0);
    // Never touched: the first sample replaces the 0 outright (w = exp(-∞) = 0).
    this.#scores = new Map(this.#addresses.map((a) => [a, { ewma: 0, touchedAt: -Infinity }]));
    this.#now = now;
  }

  afterHostUpdate(): void {}

  /** The address's current EWMA in milliseconds (tests and metrics). */
  ewma(address: Address): number {
    return this.#scores.get(address)?.ewma ?? 0;
  }

  getPeer(ctx: PeerContext): Address | undefined {
    const failed = ctx.failed;
    let best: Address | undefined;
    let bestScore = Infinity;
    for (const a of this.#addresses) {
      if (!a.available || failed?.has(a)) continue;
      const score = this.#scores.get(a)!.ewma / a.weight;
      if (score < bestScore) {
        best = a;
        bestScore = score;
      }
    }
    return best;
  }

  release(address: Address, elapsedMs: number | undefined): void {
    if (elapsedMs === undefined) return;
    const s = this.#scores.get(address);
    if (s === undefined) return;
    const now = this.#now();
    const w = Math.exp(-(now - s.touchedAt) / DECAY_MS);
    s.ewma = s.ewma * w + elapsedMs * (1 - w);
    s.touchedAt = now;
  }
}
