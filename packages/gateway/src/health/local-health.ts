import type { Certificate, Snapshot, Upstream } from '../declarative/types.ts';
import { activeChecksApply } from './active-checks-apply.ts';
import { ActiveProber, type Probe, type Timers } from './active-prober.ts';
import type { HealthOutcome } from './health-checker.ts';
import { HealthRegistry, type PreparedHealth } from './health-registry.ts';
import type { AvailabilityListener, NodeHealth } from './node-health.ts';
import { probeTarget } from './probe-target.ts';
import { isUp, type InternalHealth } from './target-state.ts';

/** A cluster-wide operator event (Kong `balancer:post_health`, dao/targets.lua:295-327). */
export type SetStatusEvent = {
  readonly type: 'set_status';
  readonly upstream: string;
  readonly keys: readonly string[];
  readonly healthy: boolean;
};

/** Carries operator events to the other gateway nodes (Redis pub/sub in cluster/). */
export interface HealthBus {
  publish(event: SetStatusEvent): void;
  /** Registers the handler of events published by *other* nodes. */
  subscribe(handler: (event: SetStatusEvent) => void): void;
  close(): Promise<void>;
}

export type LocalHealthOptions = {
  /** Runs one active probe; default a real socket probe (probe-target.ts). */
  readonly probe?: Probe;
  readonly timers?: Timers;
  /** Milliseconds, for the 300 s retention of removed targets. */
  readonly now?: () => number;
  /** Other gateway nodes sharing operator events; absent → node-local, as Kong DB-less. */
  readonly bus?: HealthBus;
  /** Extra trusted CA certificates (PEM) for https probes. */
  readonly trustedCa?: readonly string[];
  /** false → no active probing here (a process that only mirrors state). Default true. */
  readonly activeProbes?: boolean;
};

/** Told about every internal state change, `mostly_*` included (what workers mirror). */
export type StateListener = (upstreamName: string, key: string, health: InternalHealth) => void;

/**
 * A node's authoritative health: the registry of checkers, one active prober per checked
 * upstream (rebuilt on each load), passive reports, and operator events relayed to other nodes.
 */
export class LocalHealth implements NodeHealth {
  readonly registry: HealthRegistry;
  readonly #options: LocalHealthOptions;
  readonly #availability = new Set<AvailabilityListener>();
  readonly #state = new Set<StateListener>();
  readonly #loads = new Set<(snapshot: Snapshot) => void>();
  #probers: ActiveProber[] = [];
  #snapshot: Snapshot | undefined;

  constructor(options: LocalHealthOptions = {}) {
    this.#options = options;
    this.registry = new HealthRegistry(options.now ? { now: options.now } : {});
    this.registry.onChange((upstreamName, address, health, previous) => {
      for (const l of this.#state) l(upstreamName, address.key, health);
      const up = isUp(health);
      if (up !== isUp(previous)) for (const l of this.#availability) l(upstreamName, address.key, up);
    });
    options.bus?.subscribe((event) => this.#apply(event));
  }

  /** The configuration last loaded. */
  get snapshot(): Snapshot | undefined {
    return this.#snapshot;
  }

  load(snapshot: Snapshot): void {
    this.prepare(snapshot).commit();
  }

  prepare(snapshot: Snapshot): PreparedHealth {
    const next = this.registry.prepare(snapshot);
    return {
      isAddressHealthy: next.isAddressHealthy,
      commit: () => {
        this.#snapshot = snapshot;
        for (const p of this.#probers) void p.stop();
        next.commit();
        this.#probers = [];
        this.#startProbers(snapshot);
        for (const l of this.#loads) l(snapshot);
      },
    };
  }

  #startProbers(snapshot: Snapshot): void {
    if (this.#options.activeProbes === false) return;
    for (const checker of this.registry.checkers()) {
      const { healthy, unhealthy } = checker.upstream.healthchecks.active;
      if (healthy.interval === 0 && unhealthy.interval === 0) continue;
      if (!activeChecksApply(snapshot, checker.upstream)) continue;
      const clientCertificate = clientCertificateOf(snapshot, checker.upstream);
      const prober = new ActiveProber(checker, {
        probe: this.#options.probe ?? probeTarget,
        ...(this.#options.timers ? { timers: this.#options.timers } : {}),
        ...(clientCertificate ? { clientCertificate } : {}),
        ...(this.#options.trustedCa ? { trustedCa: this.#options.trustedCa } : {}),
      });
      prober.start();
      this.#probers.push(prober);
    }
  }

  checksOn(upstreamName: string): boolean {
    return this.registry.checker(upstreamName) !== undefined;
  }

  addressHealth(upstreamName: string, key: string): InternalHealth | undefined {
    return this.registry.checker(upstreamName)?.state(key)?.health;
  }

  isAddressHealthy(upstreamName: string, key: string): boolean {
    return this.registry.isAddressHealthy(upstreamName, key);
  }

  onAvailabilityChange(listener: AvailabilityListener): () => void {
    this.#availability.add(listener);
    return () => this.#availability.delete(listener);
  }

  /** Every configuration loaded, once in force (the cluster primary answers workers waiting for it). */
  onLoad(listener: (snapshot: Snapshot) => void): () => void {
    this.#loads.add(listener);
    return () => this.#loads.delete(listener);
  }

  /** Every internal state change (for the cluster primary's broadcast to workers). */
  onStateChange(listener: StateListener): () => void {
    this.#state.add(listener);
    return () => this.#state.delete(listener);
  }

  reportPassive(upstreamName: string, key: string, outcome: Exclude<HealthOutcome, 'connected'>): void {
    this.registry.report(upstreamName, key, outcome, 'passive');
  }

  setStatus(upstreamName: string, keys: readonly string[], healthy: boolean): void {
    const event: SetStatusEvent = { type: 'set_status', upstream: upstreamName, keys, healthy };
    this.#apply(event);
    this.#options.bus?.publish(event);
  }

  async close(): Promise<void> {
    const probers = this.#probers;
    this.#probers = [];
    await Promise.all(probers.map((p) => p.stop()));
    await this.#options.bus?.close();
  }

  #apply(event: SetStatusEvent): void {
    for (const key of event.keys) this.registry.setStatus(event.upstream, key, event.healthy);
  }
}

function clientCertificateOf(snapshot: Snapshot, upstream: Upstream): { cert: string; key: string } | undefined {
  if (upstream.client_certificate === null) return undefined;
  const cert: Certificate | undefined = snapshot.certificates.find((c) => c.id === upstream.client_certificate?.id);
  return cert ? { cert: cert.cert, key: cert.key } : undefined;
}
