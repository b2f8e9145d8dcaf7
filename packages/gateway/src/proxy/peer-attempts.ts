import { hashValueFor, type Address, type Balancer, type HashRequest, type PeerContext } from '../balancer/index.ts';
import type { Service, Upstream } from '../declarative/types.ts';
import type { ProxyHooks } from './proxy-hooks.ts';
import type { UpstreamEndpoint } from './upstream-pool.ts';

/** What every transport's compiled target gives the balancer: where to go, how often to retry. */
export type BalancedTarget = {
  readonly service: Pick<Service, 'retries'>;
  /** The upstream named by service.host; its balancer picks the address. */
  readonly upstream: Upstream | undefined;
  readonly balancer: Balancer | undefined;
  /** service.host:port when no upstream has that name. */
  readonly endpoint: UpstreamEndpoint | undefined;
};

const NO_HASH: PeerContext = {};

/**
 * Peer selection, retries and passive reports for one request, gRPC call or stream connection:
 * what Kong's balancer.execute and its log phase do for every subsystem, so the three
 * transports balance alike (docs/gateway-observability.md). The first pick hashes what the
 * upstream's hash_on names, once, and every retry reuses that value; an address that failed is
 * remembered so least-connections and latency skip it on the retry.
 */
export class PeerAttempts {
  readonly #target: BalancedTarget;
  readonly #hooks: ProxyHooks | undefined;
  readonly #hashRequest: (() => HashRequest) | undefined;
  #triesLeft: number;
  #peer: PeerContext | undefined;
  #address: Address | undefined;
  /** The current address is counted by the balancer (least-connections) until released. */
  #held = false;
  #setCookie: string | undefined;

  /**
   * `hashRequest` gives what a consistent-hashing upstream may hash; it is called at most once,
   * on the first pick, and only for such upstreams.
   */
  constructor(target: BalancedTarget, hooks: ProxyHooks | undefined, hashRequest: (() => HashRequest) | undefined) {
    this.#target = target;
    this.#hooks = hooks;
    this.#hashRequest = hashRequest;
    this.#triesLeft = target.service.retries;
  }

  /**
   * Where the next attempt goes: an address of the upstream's balancer, or the service's own
   * host:port. Undefined when the balancer has no peer to give (Kong: 503).
   */
  pick(): UpstreamEndpoint | undefined {
    const balancer = this.#target.balancer;
    if (balancer === undefined) return this.#target.endpoint;
    const address = balancer.getPeer((this.#peer ??= this.#peerContext(balancer)));
    if (address === undefined) return undefined;
    this.#address = address;
    this.#held = true;
    return address;
  }

  /** The balancer address of the latest attempt (kept after release, for logs). */
  get address(): Address | undefined {
    return this.#address;
  }

  /** Cookie hashing without the cookie: the Set-Cookie to add to the response. */
  get setCookie(): string | undefined {
    return this.#setCookie;
  }

  /**
   * The attempt got the target's answer: an HTTP status (a stream connect counts as 200, as
   * nginx stream's `$status`). Reported to passive health checks.
   */
  answered(status: number): void {
    this.#report(status, false);
  }

  /**
   * The attempt failed before any answer. Reported (`retried` set when another attempt follows,
   * docs/gateway-health.md) and the address released; true when the caller should pick again, which
   * needs a retry left and `retryable` (false once a request body has started flowing).
   */
  failed(outcome: 'tcp_failure' | 'timeout', retryable = true): boolean {
    const retry = retryable && this.#triesLeft > 0;
    this.#report(outcome, retry);
    this.release();
    if (!retry) return false;
    this.#triesLeft--;
    const address = this.#address;
    if (address !== undefined && this.#peer !== undefined) {
      // A fresh context object: the first one may be the shared empty NO_HASH.
      const failed = this.#peer.failed ?? new Set<Address>();
      failed.add(address);
      this.#peer = { ...this.#peer, failed };
    }
    return true;
  }

  /**
   * The attempt is over: the balancer stops counting it. `elapsedMs`, for an attempt that got a
   * response, is the latency algorithm's sample. Calling it again does nothing.
   */
  release(elapsedMs?: number): void {
    if (!this.#held) return;
    this.#held = false;
    this.#target.balancer!.release(this.#address!, elapsedMs);
  }

  #report(outcome: number | 'tcp_failure' | 'timeout', retried: boolean): void {
    const upstream = this.#target.upstream;
    if (upstream !== undefined && this.#address !== undefined) this.#hooks?.onAttempt?.(upstream, this.#address, outcome, retried);
  }

  #peerContext(balancer: Balancer): PeerContext {
    const settings = balancer.hashSettings;
    if (settings === undefined || this.#hashRequest === undefined) return NO_HASH;
    const hashed = hashValueFor(settings, this.#hashRequest());
    this.#setCookie = hashed.setCookie;
    return { hashValue: hashed.value };
  }
}
