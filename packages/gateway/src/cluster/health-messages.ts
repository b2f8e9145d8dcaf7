import type { Snapshot } from '../declarative/types.ts';
import type { HealthOutcome } from '../health/health-checker.ts';
import type { InternalHealth } from '../health/target-state.ts';

// Messages between a node's primary (which holds the health state, Kong's shm) and its workers
// (which mirror it, Kong's per-worker balancers fed by worker events; docs/gateway-health.md). Tagged so
// they share node:cluster's IPC channel with other messages.
export const HEALTH_TAG = 'signet:health';

/** Worker → primary. */
export type WorkerToPrimary =
  | { readonly tag: typeof HEALTH_TAG; readonly k: 'load'; readonly snapshot: Snapshot }
  | { readonly tag: typeof HEALTH_TAG; readonly k: 'report'; readonly upstream: string; readonly key: string; readonly outcome: HealthOutcome }
  | { readonly tag: typeof HEALTH_TAG; readonly k: 'set'; readonly upstream: string; readonly keys: readonly string[]; readonly healthy: boolean };

/** One address's internal health: [upstream name, host:port key, health]. */
export type StateEntry = readonly [upstream: string, key: string, health: InternalHealth];

/** Primary → workers. `states` answers a worker's `load` with the full picture. */
export type PrimaryToWorker =
  | { readonly tag: typeof HEALTH_TAG; readonly k: 'state'; readonly entry: StateEntry }
  | { readonly tag: typeof HEALTH_TAG; readonly k: 'states'; readonly hash: string; readonly entries: readonly StateEntry[] };

/** True for a message of this protocol (other IPC traffic is left alone). */
export function isHealthMessage(message: unknown): message is { tag: typeof HEALTH_TAG; k: string } {
  return typeof message === 'object' && message !== null && (message as { tag?: unknown }).tag === HEALTH_TAG;
}
