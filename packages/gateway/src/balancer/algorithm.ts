import type { Address } from './address.ts';

/** What a pick may depend on. Round-robin needs nothing; consistent-hashing will read `hashValue`. */
export type PeerContext = {
  /** Kong balancer/init.lua get_value_to_hash: computed once per request, reused on retries. */
  readonly hashValue?: string;
  /** Addresses that already failed for this request (least-connections and latency skip them). */
  readonly failed?: ReadonlySet<Address>;
};

/** Uniform random number in [0, 1); injected so wheels are reproducible in tests. */
export type Random = () => number;

/**
 * One per upstream.algorithm, the same shape as Kong's round_robin.lua / least_connections.lua.
 * The algorithm reads `address.available` and `address.weight`; the Balancer owns both.
 */
export interface Algorithm {
  /** Rebuild internal state (the wheel, the ring, the heap) after addresses, weights or health changed. */
  afterHostUpdate(): void;
  /** An available address, or undefined when none is; the caller answers 503 NO_PEER. */
  getPeer(ctx: PeerContext): Address | undefined;
  /** Called when a picked address is done with (least-connections counts connections). */
  release?(address: Address): void;
}
