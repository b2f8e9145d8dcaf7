import type { Snapshot } from '../declarative/types.ts';
import { CONFIG_TAG, isConfigMessage, type ConfigMessage } from './config-messages.ts';
import { METRICS_PUSH_MS, METRICS_TAG, type MetricsMessage } from './metrics-messages.ts';
import type { NodeStart } from './node-start.ts';
import { startDataPlane } from './start-data-plane.ts';
import { followReloads, loadOrKeep } from './follow-reloads.ts';
import { loadSnapshot } from './load-snapshot.ts';
import { WorkerHealth } from './worker-health.ts';
import { processPrimaryPort } from './worker-hub.ts';
import { counterClient } from './counter-messages.ts';
import { serveCacheCommands } from './cache-messages.ts';
import { useLocalCounters } from '../plugins/rate-limiting/local-counters.ts';
import { drainLogQueues } from '../plugins/index.ts';
import { setNodeId } from '../plugins/node-info.ts';

/**
 * A node:cluster worker: asks the primary for the configuration, serves the proxy listeners
 * with a mirror of the primary's health state, follows every reload, pushes its metrics, and
 * stops when the primary disconnects it (after finishing in-flight requests).
 */
export async function runWorker(start: NodeStart): Promise<number> {
  const port = processPrimaryPort();
  setNodeId(start.nodeId);
  // rate-limiting's `local` policy counts in the primary, for the whole node.
  useLocalCounters(counterClient(port));
  // The admin API (in the primary) purges and reads this worker's proxy-cache entries.
  serveCacheCommands(port);
  const health = new WorkerHealth(port);
  const first = new Promise<Snapshot>((resolve) => {
    const off = port.onMessage((m) => {
      if (isConfigMessage(m) && m.k === 'snapshot') {
        off();
        resolve(m.snapshot);
      }
    });
  });
  port.send({ tag: CONFIG_TAG, k: 'request' } satisfies ConfigMessage);
  const snapshot = await first;
  // A snapshot sent while the data plane is being built (one that replaced the configuration
  // this worker asked for) is kept, and loaded as soon as the data plane exists.
  let missed: Snapshot | undefined;
  const offMissed = port.onMessage((m) => {
    if (isConfigMessage(m) && m.k === 'snapshot') missed = m.snapshot;
  });
  health.load(snapshot);
  const { gateway, metrics } = await startDataPlane(start, snapshot, health);
  offMissed();
  // Reloads: a snapshot this worker cannot load is reported and the running one kept.
  const load = (s: Snapshot): void => loadSnapshot(s, health, gateway.runtime);
  followReloads(port, load, start.log);
  if (missed !== undefined) loadOrKeep(missed, load, start.log);
  const addresses = await gateway.listen();
  port.send({ tag: CONFIG_TAG, k: 'ready', addresses } satisfies ConfigMessage);
  const pushMetrics = setInterval(() => port.send({ tag: METRICS_TAG, state: metrics.state() } satisfies MetricsMessage), METRICS_PUSH_MS);
  pushMetrics.unref();
  // The primary decides when workers stop (disconnect); signals to the group are its to handle.
  process.on('SIGINT', () => undefined);
  const leave = (): void => {
    if (process.connected) process.disconnect();
  };
  process.on('SIGTERM', leave);
  process.on('SIGQUIT', leave);
  await new Promise<void>((resolve) => process.once('disconnect', () => resolve()));
  const stopping = Date.now();
  clearInterval(pushMetrics);
  await gateway.close();
  // The log phases of the last requests have queued their entries: send them before exiting,
  // within what is left of the grace the primary gives (it kills a worker 2 s after it).
  await drainLogQueues(Math.max(1000, start.config.shutdownGraceMs - (Date.now() - stopping)));
  await health.close();
  return 0;
}
