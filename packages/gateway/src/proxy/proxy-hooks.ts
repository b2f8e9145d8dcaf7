import type { Address } from '../balancer/index.ts';
import type { Upstream } from '../declarative/types.ts';

/**
 * How one attempt on a balancer address ended: the upstream's own HTTP status (what Kong's
 * passive checks count, kong.md §4.4), a TCP-level failure (refused, reset, invalid response),
 * or a connect/write/read timeout.
 */
export type AttemptOutcome = number | 'tcp_failure' | 'timeout';

/** Where the health checker plugs into the data plane. */
export interface ProxyHooks {
  /**
   * Called once per attempt on an upstream's address. `retried` says another attempt follows
   * (Kong counts tcp failures only on retried attempts; the final one logs as HTTP 502).
   */
  onAttempt?(upstream: Upstream, address: Address, outcome: AttemptOutcome, retried: boolean): void;
}
