import { performance } from 'node:perf_hooks';
import { parseTarget } from '../declarative/entities/target.ts';
import type { Address } from './address.ts';
import type { Algorithm, Clock, PeerContext, Random } from './algorithm.ts';
import { ConsistentHashing } from './consistent-hashing.ts';
import type { HashSettings } from './hash-value.ts';
import { Latency } from './latency.ts';
import { LeastConnections } from './least-connections.ts';
import { RoundRobin } from './round-robin.ts';

/** The upstream fields the balancer reads (Kong snake_case, from the snapshot). */
export type BalancerUpstream = {
  readonly name: string;
  readonly algorithm: string;
  readonly healthchecks: { readonly threshold: number };
  /** Continuum size for consistent-hashing (Kong default 10000); absent: 10000. */
  readonly slots?: number;
} & Partial<HashSettings>;

/** The target fields the balancer reads. */
export type BalancerTarget = { readonly id: string; readonly target: string; readonly weight: number };

export type BalancerOptions = {
  random?: Random;
  /** Milliseconds, monotonic; the latency algorithm's EWMA decay. Default performance.now. */
  now?: Clock;
  /**
   * Asked once per address when the balancer is built: lets health state survive a reload
   * (Kong keeps it 300 s, kong/runloop/handler.lua CLEAR_HEALTH_STATUS_DELAY). Absent: every
   * address starts available.
   */
  isAddressHealthy?: (upstreamName: string, address: Address) => boolean;
};

type AlgorithmInput = { readonly addresses: readonly Address[]; readonly random: Random; readonly now: Clock; readonly slots: number };
type AlgorithmFactory = (input: AlgorithmInput) => Algorithm;

// upstreams.lua default slots.
const DEFAULT_SLOTS = 10_000;

/** Algorithms by upstream.algorithm (kong/runloop/balancer/{round_robin,consistent_hashing,
 * least_connections,latency}.lua). */
const ALGORITHMS: Readonly<Record<string, AlgorithmFactory>> = {
  'round-robin': ({ addresses, random }) => new RoundRobin(addresses, random),
  'consistent-hashing': ({ addresses, slots }) => new ConsistentHashing(addresses, slots),
  'least-connections': ({ addresses }) => new LeastConnections(addresses),
  latency: ({ addresses, now }) => new Latency(addresses, now),
};

/** True when `name` has its own implementation (anything else falls back to round-robin). */
export function isAlgorithmImplemented(name: string): boolean {
  return Object.hasOwn(ALGORITHMS, name);
}

/**
 * One upstream's balancer (Kong balancers.lua): its addresses, their weights and availability,
 * the health threshold, and the algorithm that picks. Pure: no I/O, randomness injected.
 */
export class Balancer {
  readonly upstreamName: string;
  readonly addresses: readonly Address[];
  readonly #byKey = new Map<string, Address>();
  readonly #threshold: number;
  readonly #algorithm: Algorithm;
  /** Set for consistent-hashing upstreams: what the proxy hashes (hash-value.ts). */
  readonly hashSettings: HashSettings | undefined;
  #totalWeight = 0;
  #unavailableWeight = 0;

  constructor(upstream: BalancerUpstream, targets: readonly BalancerTarget[], options: BalancerOptions = {}) {
    this.upstreamName = upstream.name;
    this.#threshold = upstream.healthchecks.threshold;
    const addresses: Address[] = [];
    for (const t of targets) {
      const { host, port } = parseTarget(t.target);
      const key = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      if (this.#byKey.has(key)) continue;
      const address: Address = { key, host, port, weight: t.weight, targetId: t.id, target: t.target, available: true };
      if (options.isAddressHealthy && !options.isAddressHealthy(upstream.name, address)) address.available = false;
      addresses.push(address);
      this.#byKey.set(key, address);
      this.#totalWeight += address.weight;
      if (!address.available) this.#unavailableWeight += address.weight;
    }
    this.addresses = addresses;
    const factory = ALGORITHMS[upstream.algorithm] ?? ALGORITHMS['round-robin']!;
    this.#algorithm = factory({
      addresses,
      random: options.random ?? Math.random,
      now: options.now ?? (() => performance.now()),
      slots: upstream.slots ?? DEFAULT_SLOTS,
    });
    this.hashSettings = upstream.algorithm === 'consistent-hashing' ? hashSettingsOf(upstream) : undefined;
  }

  /** Kong balancers.lua updateStatus: strict `>` against the threshold; no weight = unhealthy. */
  isHealthy(): boolean {
    const total = this.#totalWeight;
    if (total === 0) return false;
    return ((total - this.#unavailableWeight) / total) * 100 > this.#threshold;
  }

  get totalWeight(): number {
    return this.#totalWeight;
  }

  get unavailableWeight(): number {
    return this.#unavailableWeight;
  }

  /** The address with this `host:port` key, if the upstream has one. */
  findAddress(key: string): Address | undefined {
    return this.#byKey.get(key);
  }

  /**
   * A peer for one attempt, or undefined (→ 503 NO_PEER) when the balancer is unhealthy or no
   * address is available. Retries call it again and get the next pick.
   */
  getPeer(ctx: PeerContext = {}): Address | undefined {
    if (!this.isHealthy()) return undefined;
    return this.#algorithm.getPeer(ctx);
  }

  /**
   * The attempt on `address` is over (least-connections bookkeeping); `elapsedMs`, when it got a
   * response, is its connect + response time (the latency algorithm's sample).
   */
  release(address: Address, elapsedMs?: number): void {
    this.#algorithm.release?.(address, elapsedMs);
  }

  /**
   * Health checks take an address out or put it back (Kong setAddressStatus): the weight
   * accounting changes and the algorithm rebuilds. Returns false for an unknown address.
   */
  setAddressStatus(key: string, available: boolean): boolean {
    const address = this.#byKey.get(key);
    if (!address) return false;
    if (address.available === available) return true;
    address.available = available;
    this.#unavailableWeight += available ? -address.weight : address.weight;
    this.#algorithm.afterHostUpdate();
    return true;
  }
}

function hashSettingsOf(u: Partial<HashSettings>): HashSettings {
  return {
    hash_on: u.hash_on ?? 'none',
    hash_fallback: u.hash_fallback ?? 'none',
    hash_on_header: u.hash_on_header ?? null,
    hash_fallback_header: u.hash_fallback_header ?? null,
    hash_on_cookie: u.hash_on_cookie ?? null,
    hash_on_cookie_path: u.hash_on_cookie_path ?? '/',
    hash_on_query_arg: u.hash_on_query_arg ?? null,
    hash_fallback_query_arg: u.hash_fallback_query_arg ?? null,
    hash_on_uri_capture: u.hash_on_uri_capture ?? null,
    hash_fallback_uri_capture: u.hash_fallback_uri_capture ?? null,
  };
}
