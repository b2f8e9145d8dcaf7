import type { Address } from './address.ts';
import type { Algorithm, PeerContext } from './algorithm.ts';

/**
 * Kong's least-connections (kong/runloop/balancer/least_connections.lua): the available address
 * with the lowest `(connections + 1) / weight` wins, so on an idle balancer the heaviest goes
 * first (weights 20/50 pick 50, 50, 20). Kong keeps a binary heap; upstreams have a handful of
 * targets, so a linear scan over a flat array is as fast here and allocates nothing.
 */
export class LeastConnections implements Algorithm {
  readonly #addresses: readonly Address[];
  readonly #connections: Map<Address, number>;

  constructor(addresses: readonly Address[]) {
    this.#addresses = addresses.filter((a) => a.weight > 0);
    this.#connections = new Map(this.#addresses.map((a) => [a, 0]));
  }

  /** Connections are counted per address object; nothing depends on health. */
  afterHostUpdate(): void {}

  /** The connections counted on `address` now (tests and metrics). */
  connections(address: Address): number {
    return this.#connections.get(address) ?? 0;
  }

  getPeer(ctx: PeerContext): Address | undefined {
    let best = this.#best(ctx.failed);
    if (best === undefined && ctx.failed !== undefined && ctx.failed.size > 0) {
      // Every address has failed for this request: Kong resets the list and starts over.
      ctx.failed.clear();
      best = this.#best(undefined);
    }
    if (best !== undefined) this.#connections.set(best, this.#connections.get(best)! + 1);
    return best;
  }

  release(address: Address): void {
    const n = this.#connections.get(address);
    if (n !== undefined && n > 0) this.#connections.set(address, n - 1);
  }

  #best(failed: ReadonlySet<Address> | undefined): Address | undefined {
    let best: Address | undefined;
    let bestScore = Infinity;
    for (const a of this.#addresses) {
      if (!a.available || failed?.has(a)) continue;
      const score = (this.#connections.get(a)! + 1) / a.weight;
      if (score < bestScore) {
        best = a;
        bestScore = score;
      }
    }
    return best;
  }
}
