import type { Address } from '../balancer/index.ts';
import type { Route, Service, Upstream } from '../declarative/types.ts';

/**
 * How one attempt on a balancer address ended: the upstream's own HTTP status (what Kong's
 * passive checks count, docs/gateway-health.md "Passive specifics"), a TCP-level failure (refused, reset, invalid response),
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
  /**
   * Called once per proxied request when its response is complete, failed or abandoned: metrics
   * and access logs (metrics/). Not called at all when absent, so it costs nothing then.
   */
  onRequestDone?(done: RequestDone): void;
}

/** One finished request, as metrics and the access log see it. */
export type RequestDone = {
  readonly requestId: string;
  readonly method: string;
  /** The request target as sent (path and query). */
  readonly uri: string;
  readonly clientIp: string;
  /** The status sent to the client; 499 when the client went away first (nginx's code). */
  readonly status: number;
  /** 'upstream' when the status came from the upstream, 'kong' when the gateway made it up. */
  readonly source: 'upstream' | 'kong';
  readonly service: Service | undefined;
  readonly route: Route | undefined;
  /** The last address tried (`host:port`), if any. */
  readonly upstreamAddress: string | undefined;
  /** Kong's $kong_proxy_latency: request received → sent upstream, ms. */
  readonly proxyLatencyMs: number | undefined;
  /** Kong's $upstream_response_time: upstream connect → response head, ms. */
  readonly upstreamLatencyMs: number | undefined;
  /** Request received → response done, ms. */
  readonly totalMs: number;
};
