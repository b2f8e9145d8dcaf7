import type { Snapshot } from '../declarative/types.ts';
import { listenUrl } from './listen-url.ts';
import { loadSnapshot } from './load-snapshot.ts';
import { localHealthFor } from './local-health-for.ts';
import type { NodeStart } from './node-start.ts';
import { startAdmin } from './start-admin.ts';
import { startDataPlane } from './start-data-plane.ts';
import { stopSignal } from './stop-signal.ts';
import { runCacheCommand } from '../plugins/proxy-cache/cache-commands.ts';
import { drainLogQueues } from '../plugins/index.ts';
import { setNodeId } from '../plugins/node-info.ts';

/** --workers 1: proxy, admin API and health state in this one process, until a stop signal. */
export async function runSingle(start: NodeStart, snapshot: Snapshot): Promise<number> {
  const { config, log } = start;
  const nodeId = start.nodeId;
  setNodeId(nodeId);
  const health = localHealthFor(start.redisUrl, nodeId, log);
  health.load(snapshot);
  const { gateway, metrics } = await startDataPlane(start, snapshot, health);
  const stopped = stopSignal(start.supervised);
  for (const a of await gateway.listen()) log.info({ url: listenUrl(a) }, `proxy listening on ${listenUrl(a)}`);
  const closeAdmin = await startAdmin(config, {
    snapshot: () => gateway.runtime.state.snapshot,
    applyConfig: (s) => {
      // All or nothing: a configuration the runtime refuses leaves the health state alone too.
      loadSnapshot(s, health, gateway.runtime);
      log.info({ hash: s.hash }, 'configuration loaded');
    },
    health,
    nodeId,
    pids: () => ({ master: process.pid, workers: [process.pid] }),
    metrics: () => metrics.state(),
    // One process: its own caches answer.
    proxyCache: (command) => Promise.resolve([runCacheCommand(command, Date.now())]),
  }, log);
  log.info({ workers: 1 }, 'gateway started');
  const signal = await stopped;
  log.info({ signal }, 'stopping');
  await closeAdmin();
  const stopping = Date.now();
  await gateway.close();
  // Queued log entries go out before the process exits (Kong flushes its queues on worker exit).
  await drainLogQueues(Math.max(1000, config.shutdownGraceMs - (Date.now() - stopping)));
  await health.close();
  log.info('stopped');
  return 0;
}
