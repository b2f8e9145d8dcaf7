import { parseTarget } from '../declarative/entities/target.ts';
import type { Snapshot } from '../declarative/types.ts';
import { healthchecksOn } from './checks-on.ts';
import { HealthChecker, type CheckedAddress, type HealthChangeListener, type HealthOutcome } from './health-checker.ts';
import type { CheckMode } from './compiled-checks.ts';
import type { TargetState } from './target-state.ts';

/**
 * Kong keeps a removed target's state this long, so a reload or an upstream deleted and re-added
 * with the same name finds it again (kong/runloop/handler.lua CLEAR_HEALTH_STATUS_DELAY).
 */
export const HEALTH_RETENTION_MS = 300_000;

export type HealthRegistryOptions = {
  /** Milliseconds; injected so the 300 s retention is tested without waiting. */
  readonly now?: () => number;
  readonly retentionMs?: number;
};

type Retired = { readonly state: TargetState; readonly purgeAt: number };

/** A configuration's health, built and not yet in force (HealthRegistry.prepare). */
export type PreparedHealth = {
  /** What isAddressHealthy will answer once committed. */
  readonly isAddressHealthy: (upstreamName: string, key: string) => boolean;
  /** Puts it in force. */
  readonly commit: () => void;
};

/** The `host:port` key the balancer uses for a target string (balancer/balancer.ts). */
export function addressOf(target: string): CheckedAddress {
  const { host, port } = parseTarget(target);
  const key = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
  return { key, host, port, hostname: host };
}

/**
 * A node's health state: one {@link HealthChecker} per upstream whose checks are on, rebuilt on
 * every configuration load while keeping the state of unchanged (upstream name, address) pairs.
 * Synchronous and clock-injected; active probes and the proxy feed it from the outside.
 */
export class HealthRegistry {
  readonly #now: () => number;
  readonly #retentionMs: number;
  readonly #listeners = new Set<HealthChangeListener>();
  #checkers = new Map<string, HealthChecker>();
  #retired = new Map<string, Retired>();

  constructor(options: HealthRegistryOptions = {}) {
    this.#now = options.now ?? Date.now;
    this.#retentionMs = options.retentionMs ?? HEALTH_RETENTION_MS;
  }

  /**
   * Builds the checkers for a configuration. Only targets with weight > 0 are checked (Kong
   * healthcheckers.lua); the first target claiming a `host:port` owns it, as in the balancer.
   */
  load(snapshot: Snapshot): void {
    this.prepare(snapshot).commit();
  }

  /**
   * {@link load} in two steps: builds the checkers and answers for them without changing
   * anything, so a reload can build the rest of the node against the health it will have, then
   * commit all or nothing. Commit right after (nothing may change the registry in between).
   */
  prepare(snapshot: Snapshot): PreparedHealth {
    const now = this.#now();
    const previous = this.#checkers;
    const next = new Map<string, HealthChecker>();
    const revived: string[] = [];
    for (const upstream of snapshot.upstreams) {
      if (!healthchecksOn(upstream.healthchecks)) continue;
      const checker = new HealthChecker(upstream, (u, a, h, p) => this.#emit(u, a, h, p));
      const old = previous.get(upstream.name);
      const claimed = new Set<string>();
      for (const target of snapshot.targets) {
        if (target.upstream.id !== upstream.id) continue;
        const address = addressOf(target.target);
        if (claimed.has(address.key)) continue;
        claimed.add(address.key);
        if (target.weight === 0) continue;
        let state = old?.state(address.key);
        const retired = state === undefined ? this.#retired.get(retiredKey(upstream.name, address.key)) : undefined;
        if (retired !== undefined) {
          revived.push(retiredKey(upstream.name, address.key));
          if (retired.purgeAt > now) state = retired.state;
        }
        checker.add(address, state);
      }
      next.set(upstream.name, checker);
    }
    return {
      isAddressHealthy: (upstreamName, key) => {
        const checker = next.get(upstreamName);
        return checker === undefined || checker.isUp(key);
      },
      commit: () => {
        for (const key of revived) this.#retired.delete(key);
        // Whatever the new configuration no longer checks is kept for the retention delay.
        for (const [name, checker] of previous) {
          const successor = next.get(name);
          for (const { address, state } of checker.entries()) {
            if (successor?.state(address.key) === undefined) {
              this.#retired.set(retiredKey(name, address.key), { state, purgeAt: now + this.#retentionMs });
            }
          }
        }
        for (const [key, r] of this.#retired) if (r.purgeAt <= now) this.#retired.delete(key);
        this.#checkers = next;
      },
    };
  }

  /** The checker of an upstream (by name), or undefined when its health checks are off. */
  checker(upstreamName: string): HealthChecker | undefined {
    return this.#checkers.get(upstreamName);
  }

  /** Every live checker. */
  checkers(): IterableIterator<HealthChecker> {
    return this.#checkers.values();
  }

  /** Balancer hook: false only for a checked address that is down. */
  isAddressHealthy(upstreamName: string, key: string): boolean {
    const checker = this.#checkers.get(upstreamName);
    return checker === undefined || checker.isUp(key);
  }

  /** Feeds an outcome (active probe or proxied attempt) to the address's counters. */
  report(upstreamName: string, key: string, outcome: HealthOutcome, mode: CheckMode): void {
    this.#checkers.get(upstreamName)?.report(key, outcome, mode);
  }

  /** Operator set; false when the upstream has no checker or does not check that address. */
  setStatus(upstreamName: string, key: string, healthy: boolean): boolean {
    return this.#checkers.get(upstreamName)?.setStatus(key, healthy) ?? false;
  }

  /** Mirrors a state decided by another process (see HealthChecker.assume). */
  assume(upstreamName: string, key: string, health: TargetState['health']): void {
    this.#checkers.get(upstreamName)?.assume(key, health);
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onChange(listener: HealthChangeListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(upstreamName: string, address: CheckedAddress, health: TargetState['health'], previous: TargetState['health']): void {
    for (const listener of this.#listeners) listener(upstreamName, address, health, previous);
  }
}

function retiredKey(upstreamName: string, key: string): string {
  return `${upstreamName}\u0000${key}`;
}
