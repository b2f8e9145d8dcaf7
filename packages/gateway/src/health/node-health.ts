import type { Snapshot } from '../declarative/types.ts';
import type { HealthOutcome } from './health-checker.ts';
import type { PreparedHealth } from './health-registry.ts';
import type { HealthReader } from './health-view.ts';

/** Told when an address starts or stops taking traffic (Kong `setAddressStatus`). */
export type AvailabilityListener = (upstreamName: string, key: string, up: boolean) => void;

/**
 * A gateway node's health, as the runtime, the proxy and the admin API use it. One process:
 * {@link LocalHealth}. With `--workers`: the primary holds a LocalHealth and each worker a
 * cluster/WorkerHealth mirror, so every worker sees the same state.
 */
export interface NodeHealth extends HealthReader {
  /** Loads a configuration (also on POST /config); unchanged (upstream, address) pairs keep their state. */
  load(snapshot: Snapshot): void;
  /**
   * {@link load} in two steps (cluster/load-snapshot.ts): nothing changes until `commit`, which
   * must follow synchronously; meanwhile `isAddressHealthy` answers as the loaded state will.
   */
  prepare(snapshot: Snapshot): PreparedHealth;
  /** Balancer hook: false only for a checked address that is down. */
  isAddressHealthy(upstreamName: string, key: string): boolean;
  /** Subscribes to availability changes; returns the unsubscribe function. */
  onAvailabilityChange(listener: AvailabilityListener): () => void;
  /**
   * Passive report of one proxied attempt: the upstream's own status, or 'tcp_failure' /
   * 'timeout' for an attempt that failed before a response (docs/gateway-health.md, "Passive specifics").
   */
  reportPassive(upstreamName: string, key: string, outcome: Exclude<HealthOutcome, 'connected'>): void;
  /** Operator healthy/unhealthy: resets the counters of these addresses everywhere (node and cluster). */
  setStatus(upstreamName: string, keys: readonly string[], healthy: boolean): void;
  /** Stops probes and message channels. */
  close(): Promise<void>;
}
