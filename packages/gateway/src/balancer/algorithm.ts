import type { Address } from './address.ts';

/** What a pick may depend on, one object per request, reused by its retries. */
export type PeerContext = {
  /**
   * Kong balancer/init.lua get_value_to_hash: computed once per request, reused on retries so a
   * retry starts at the same point of the ring (consistent-hashing only; absent hashes "").
   */
  readonly hashValue?: string;
  /**
   * Addresses that already failed for this request. least-connections and latency skip them;
   * least-connections clears the set once every address has failed (least_connections.lua).
   */
  readonly failed?: Set<Address>;
};

/** Uniform random number in [0, 1); injected so wheels are reproducible in tests. */
export type Random = () => number;

/** Milliseconds from a monotonic clock; injected so the latency EWMA is testable. */
export type Clock = () => number;

/**
 * One per upstream.algorithm, the same shape as Kong's round_robin.lua / least_connections.lua.
 * The algorithm reads `address.available` and `address.weight`; the Balancer owns both.
 */
export interface Algorithm {
  /** Rebuild internal state (the wheel, the ring, the heap) after addresses, weights or health changed. */
  afterHostUpdate(): void;
  /** An available address, or undefined when none is; the caller answers 503 NO_PEER. */
  getPeer(ctx: PeerContext): Address | undefined;
  /**
   * A picked address is done with (least-connections counts connections). `elapsedMs` is the
   * attempt's connect + response time when it got a response (latency.lua afterBalance).
   */
  release?(address: Address, elapsedMs: number | undefined): void;
}
