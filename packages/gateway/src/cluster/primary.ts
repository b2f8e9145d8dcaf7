import cluster from 'node:cluster';
import type { Snapshot } from '../declarative/types.ts';
import { addMetricsStates, emptyMetricsState, type MetricsState } from '../metrics/index.ts';
import { ClusterConfig } from './cluster-config.ts';
import { isConfigMessage } from './config-messages.ts';
import { listenUrl } from './listen-url.ts';
import { localHealthFor } from './local-health-for.ts';
import { isMetricsMessage } from './metrics-messages.ts';
import { NODE_ID_ENV, type NodeStart } from './node-start.ts';
import { WORKER_CPUS_ENV } from '../native/cpu-affinity-setting.ts';
import { setNodeId } from '../plugins/node-info.ts';
import { serveWorkerHealth } from './serve-worker-health.ts';
import { startAdmin } from './start-admin.ts';
import { RestartBackoff } from './restart-backoff.ts';
import { stopSignal } from './stop-signal.ts';
import { clusterWorkerHub } from './worker-hub.ts';
import { serveCounters } from './counter-messages.ts';
import { CounterStore } from '../plugins/rate-limiting/counter-store.ts';
import { cacheCommandAsker } from './cache-messages.ts';
import { V8_FLAGS } from '../v8-flags.ts';

/**
 * The node:cluster primary: owns the configuration (kong.yml, then POST /config), the admin
 * API, the health state and its active probes; forks `config.workers` proxy workers, hands
 * them the configuration and the health state over IPC (config-messages.ts,
 * health-messages.ts), sums their metrics (metrics-messages.ts) and replaces a worker that
 * dies. On a stop signal the workers finish in-flight requests, then exit.
 */
export async function runPrimary(start: NodeStart, snapshot: Snapshot): Promise<number> {
  const { config, log } = start;
  const nodeId = start.nodeId;
  setNodeId(nodeId);
  const health = localHealthFor(start.redisUrl, nodeId, log);
  health.load(snapshot);
  const hub = clusterWorkerHub();
  const detachHealth = serveWorkerHealth(health, hub);
  // rate-limiting `local` counters for the node, kept across reloads and worker restarts.
  const detachCounters = serveCounters(new CounterStore(), hub);
  // proxy-cache's admin endpoints reach the caches each worker holds.
  const caches = cacheCommandAsker(hub);
  let stopping = false;
  const ready = new Set<number>();
  // `current` and reload rounds: a configuration becomes current once every ready worker loaded it.
  const configuration = new ClusterConfig(snapshot, {
    hub,
    health,
    readyWorkers: () => ready,
    liveWorkers: () => Object.values(cluster.workers ?? {}).filter((w) => w?.isConnected() === true).map((w) => w?.id ?? 0),
  });
  let announced = false;
  const stopped = stopSignal(start.supervised);
  let failStart: (why: string) => void = () => undefined;
  const startFailed = new Promise<string>((resolve) => (failStart = resolve));

  const workerMetrics = new Map<number, MetricsState>();
  const offMessages = hub.onMessage((workerId, message) => {
    if (isMetricsMessage(message)) workerMetrics.set(workerId, message.state);
    if (!isConfigMessage(message)) return;
    if (message.k !== 'ready') {
      configuration.onMessage(workerId, message);
    } else {
      ready.add(workerId);
      if (!announced && ready.size === config.workers) {
        announced = true;
        for (const a of message.addresses) log.info({ url: listenUrl(a) }, `proxy listening on ${listenUrl(a)}`);
        log.info({ workers: config.workers }, 'gateway started');
      }
    }
  });
  // A worker that took a stop signal itself (one sent to the whole process group: systemd,
  // `pkill -f`, Ctrl-C) closes its channel; a message to it, the primary's own disconnect
  // included, then fails with EPIPE as an 'error' on its Worker. It is leaving anyway: that must
  // not crash the primary.
  const startedAt = new Map<number, number>();
  // Each worker's slot, so a replacement takes the CPUs of the worker it replaces.
  const slots = new Map<number, number>();
  // Workers hold the gateway's V8 settings from their first allocation (v8-flags.ts).
  const execArgv = cluster.settings.execArgv ?? process.execArgv;
  cluster.setupPrimary({ execArgv: [...V8_FLAGS.filter((f) => !execArgv.includes(f)), ...execArgv] });
  const fork = (slot: number): void => {
    const cpus = start.workerCpus?.[slot];
    const worker = cluster.fork({ [NODE_ID_ENV]: nodeId, ...(cpus !== undefined ? { [WORKER_CPUS_ENV]: cpus.join(',') } : {}) });
    slots.set(worker.id, slot);
  };
  const backoff = new RestartBackoff();
  const replacements = new Set<NodeJS.Timeout>();
  cluster.on('fork', (worker) => {
    startedAt.set(worker.id, Date.now());
    worker.on('error', (err: Error) => log.debug({ pid: worker.process.pid, err: err.message }, 'a message to a leaving worker was not sent'));
  });
  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id);
    configuration.onExit(worker.id);
    // A dead worker's connections are gone; its counters are kept (they were served).
    const last = workerMetrics.get(worker.id);
    if (last !== undefined) {
      last.activeConnections = 0;
      // Its heap is gone too: a dead pid is not a worker's memory.
      last.workerHeapBytes = {};
    }
    if (stopping) return;
    if (!announced) {
      // A worker that dies before the gateway has started (a proxy port taken, a certificate it
      // cannot read) would die again: start fails, as nginx's does, instead of replacing it
      // forever while nothing serves. Its error is in the log above.
      failStart(`a worker exited before the gateway started (code ${code}${signal ? `, signal ${signal}` : ''})`);
      return;
    }
    // A worker died on its own: replace it, as nginx's master does, but after a growing delay
    // when workers keep dying young (restart-backoff.ts).
    const now = Date.now();
    const delayMs = backoff.delayFor(startedAt.get(worker.id) ?? now, now);
    startedAt.delete(worker.id);
    log.error({ pid: worker.process.pid, code, signal, delayMs }, 'worker exited; starting another');
    const slot = slots.get(worker.id) ?? 0;
    slots.delete(worker.id);
    const timer = setTimeout(() => {
      replacements.delete(timer);
      if (!stopping) fork(slot);
    }, delayMs);
    replacements.add(timer);
  });
  // node's default round-robin hand-off of connections is kept: letting workers accept on the
  // shared socket (NODE_CLUSTER_SCHED_POLICY=none) costs less CPU per new connection but spreads
  // connections unevenly, and measured slower keep-alive and close (docs/benchmarks.md).
  for (let slot = 0; slot < config.workers; slot++) fork(slot);

  const closeAdmin = await startAdmin(config, {
    snapshot: () => configuration.current,
    applyConfig: async (s) => {
      try {
        await configuration.apply(s);
      } catch (e) {
        log.error({ hash: s.hash, err: e instanceof Error ? e.message : String(e) }, 'configuration not loaded; keeping the running one');
        throw e;
      }
      log.info({ hash: s.hash }, 'configuration loaded');
    },
    health,
    nodeId,
    pids: () => ({ master: process.pid, workers: Object.values(cluster.workers ?? {}).map((w) => w?.process.pid ?? 0) }),
    metrics: () => [...workerMetrics.values()].reduce(addMetricsStates, emptyMetricsState()),
    proxyCache: caches.ask,
  }, log);

  const outcome = await Promise.race([stopped.then((signal) => ({ signal })), startFailed.then((failure) => ({ failure }))]);
  stopping = true;
  for (const timer of replacements) clearTimeout(timer);
  if ('failure' in outcome) log.error(`start failed: ${outcome.failure}; stopping`);
  else log.info({ signal: outcome.signal }, 'stopping');
  await closeAdmin();
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
    if (w.isDead()) return resolve();
    w.once('exit', () => resolve());
    // disconnect(): the worker closes its listeners, finishes in-flight requests, then exits.
    // One that disconnected itself (it took the signal too) is doing that already.
    if (w.isConnected()) w.disconnect();
    setTimeout(() => w.process.kill('SIGKILL'), config.shutdownGraceMs + 2000).unref();
  })));
  offMessages();
  detachHealth();
  detachCounters();
  caches.close();
  await health.close();
  log.info('stopped');
  return 'failure' in outcome ? 1 : 0;
}
