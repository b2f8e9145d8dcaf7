import type { Snapshot } from '../declarative/types.ts';
import type { NodeHealth } from '../health/node-health.ts';
import type { Runtime } from '../runtime.ts';

/**
 * Loads a configuration into one process's health state and runtime, all or nothing: both are
 * built first (new balancers asking the health the configuration will have), then committed
 * together. A configuration the runtime cannot compile throws here and changes neither: the
 * health checkers and probes of the running configuration stay with the routes still served.
 */
export function loadSnapshot(snapshot: Snapshot, health: NodeHealth, runtime: Runtime): void {
  const nextHealth = health.prepare(snapshot);
  const commitRuntime = runtime.prepare(snapshot, (upstreamName, address) => nextHealth.isAddressHealthy(upstreamName, address.key));
  nextHealth.commit();
  commitRuntime();
}
