import type { Upstream } from '../declarative/types.ts';
import { classifyHttpStatus, compileChecks, type CheckMode, type Classified, type CompiledChecks } from './compiled-checks.ts';
import { applyReport, forcedState, INITIAL_TARGET_STATE, isUp, type InternalHealth, type TargetState } from './target-state.ts';

/**
 * What a probe or a proxied attempt reports: the upstream's HTTP status (0 = no parsable status
 * line), a TCP-level failure (refused, reset, TLS handshake), a timeout, or — for tcp probes
 * only — a bare successful connect.
 */
export type HealthOutcome = number | 'tcp_failure' | 'timeout' | 'connected';

/** One checked address of an upstream: `key` is the balancer's `host:port`. */
export type CheckedAddress = {
  readonly key: string;
  readonly host: string;
  readonly port: number;
  /** The target's host name (the IP for IP targets): the probe's Host header and SNI. */
  readonly hostname: string;
};

/** Told about every state change, `mostly_*` ones included (Kong raises an event for each). */
export type HealthChangeListener = (
  upstreamName: string,
  address: CheckedAddress,
  health: InternalHealth,
  previous: InternalHealth,
) => void;

type Entry = { readonly address: CheckedAddress; state: TargetState };

/**
 * One upstream's health checker (lua-resty-healthcheck's `checker`, one per Kong upstream):
 * the addresses it checks, their counters, and Kong's report semantics. Pure and synchronous:
 * probes and proxied traffic feed it through {@link report}; nothing here does I/O or reads time.
 */
export class HealthChecker {
  readonly upstream: Upstream;
  readonly checks: CompiledChecks;
  readonly #entries = new Map<string, Entry>();
  readonly #onChange: HealthChangeListener;

  constructor(upstream: Upstream, onChange: HealthChangeListener) {
    this.upstream = upstream;
    this.checks = compileChecks(upstream.healthchecks);
    this.#onChange = onChange;
  }

  /** Adds an address, healthy unless a previous state is carried over (Kong add_target). */
  add(address: CheckedAddress, state: TargetState = INITIAL_TARGET_STATE): void {
    if (!this.#entries.has(address.key)) this.#entries.set(address.key, { address, state });
  }

  /** Every checked address with its current state. */
  *entries(): IterableIterator<{ readonly address: CheckedAddress; readonly state: TargetState }> {
    yield* this.#entries.values();
  }

  /** The state of one address, or undefined when it is not checked (weight 0, unknown). */
  state(key: string): TargetState | undefined {
    return this.#entries.get(key)?.state;
  }

  /** True unless the address is checked and down; unchecked addresses always take traffic. */
  isUp(key: string): boolean {
    const entry = this.#entries.get(key);
    return entry === undefined || isUp(entry.state.health);
  }

  /**
   * Feeds one outcome into the address's counters (healthcheck.lua report_* → incr_counter).
   * Passive: a 504 is a timeout (Kong handler.lua log phase), and a success never brings a
   * down target back by itself (docs/gateway-health.md, "Passive specifics": only active probes or an operator do that).
   */
  report(key: string, outcome: HealthOutcome, mode: CheckMode): void {
    const entry = this.#entries.get(key);
    if (entry === undefined) return;
    const classified = this.#classify(outcome, mode);
    if (classified === undefined) return;
    if (mode === 'passive' && classified.kind === 'success' && !isUp(entry.state.health)) return;
    this.#set(entry, applyReport(entry.state, classified.kind, classified.limit));
  }

  /** Would this report change anything? Lets a worker skip forwarding no-ops (the common 200). */
  isNoop(key: string, outcome: HealthOutcome, mode: CheckMode, health: InternalHealth): boolean {
    if (!this.#entries.has(key)) return true;
    const classified = this.#classify(outcome, mode);
    if (classified === undefined || classified.limit === 0) return true;
    if (classified.kind === 'success') return health === 'healthy' || (mode === 'passive' && !isUp(health));
    return health === 'unhealthy';
  }

  /** Operator `PUT …/healthy|unhealthy`: counters to 0, state set at once (set_target_status). */
  setStatus(key: string, healthy: boolean): boolean {
    const entry = this.#entries.get(key);
    if (entry === undefined) return false;
    this.#set(entry, forcedState(healthy), true);
    return true;
  }

  /**
   * Takes a state decided elsewhere (a cluster worker mirroring its primary): the health is
   * set, counters are not tracked here. Listeners hear about a change as usual.
   */
  assume(key: string, health: InternalHealth): void {
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.state.health !== health) this.#set(entry, { health, counters: entry.state.counters });
  }

  #classify(outcome: HealthOutcome, mode: CheckMode): Classified | undefined {
    const checks = this.checks[mode];
    if (typeof outcome === 'number') {
      // Kong handler.lua:1650-1675 — the log phase reports an upstream 504 as a timeout.
      if (mode === 'passive' && outcome === 504) return checks.timeout;
      return classifyHttpStatus(checks, outcome);
    }
    switch (outcome) {
      case 'tcp_failure':
        return checks.tcp;
      case 'timeout':
        return checks.timeout;
      case 'connected':
        return checks.success;
    }
  }

  #set(entry: Entry, next: TargetState, forced = false): void {
    const previous = entry.state;
    if (next === previous) return;
    entry.state = next;
    // Kong raises an event on every state change, and on a forced set even when unchanged.
    if (forced || next.health !== previous.health) this.#onChange(this.upstream.name, entry.address, next.health, previous.health);
  }
}
