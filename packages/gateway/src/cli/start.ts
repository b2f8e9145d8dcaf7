// `signet-gateway start`: settings from flags and KONG_* env (validated once), the configuration
// loaded, then one of the process layouts in cluster/: one process (--workers 1), or a
// node:cluster primary with proxy workers. Stops cleanly on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { pino } from 'pino';
import { loadSnapshot } from '../build-gateway.ts';
import type { CommandIo } from '../cli.ts';
import { NODE_ID_ENV, type NodeStart } from '../cluster/node-start.ts';
import { runPrimary } from '../cluster/primary.ts';
import { watchProcessFaults } from '../cluster/process-faults.ts';
import { runSingle } from '../cluster/run-single.ts';
import { runWorker } from '../cluster/worker.ts';
import { buildGatewayConfig, ConfigError, type GatewayConfig, type ListenAddress } from '../config.ts';
import type { Snapshot } from '../declarative/types.ts';
import { GatewayError } from '../errors.ts';
import { buildReusePortAddon } from '../listen/reuse-port-addon.ts';
import { buildSocketOptionsAddon } from '../listen/socket-options-addon.ts';
import { allowedCpus, bindToCpus } from '../native/cpu-affinity.ts';
import { cpusForWorker, WORKER_CPUS_ENV } from '../native/cpu-affinity-setting.ts';
import { readStartSettings, type StartSettings } from './read-start-settings.ts';

/** `signet-gateway start [--config FILE] [--proxy-listen L] [--admin-listen L] [--workers N] [--ssl-cert F --ssl-cert-key F]` */
export async function start(args: readonly string[], io: CommandIo): Promise<number> {
  let settings: StartSettings;
  let config: GatewayConfig;
  let workerCpus: number[][] | undefined;
  try {
    settings = await readStartSettings(args, process.env, (path) => readFile(path, 'utf8'));
    config = buildGatewayConfig(settings);
    // The listen flags' helpers, built before any worker starts: the workers only load them
    // (src/listen/). The admin API lives in one process and binds no reuseport socket.
    if (!cluster.isWorker) {
      buildListenHelper(config, (a, setting) => a.reuseport === true && setting !== 'admin_listen', buildReusePortAddon);
      buildListenHelper(config, (a) => a.keepalive !== undefined || a.deferred === true, buildSocketOptionsAddon);
    }
    workerCpus = planWorkerCpus(config, settings.nginx_main_worker_cpu_affinity ?? '');
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`signet-gateway start: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const accessLogSetting = process.env.KONG_PROXY_ACCESS_LOG;
  const node: NodeStart = {
    config,
    log: pino({ base: { pid: process.pid, role: cluster.isWorker ? 'worker' : 'primary' } }),
    redisUrl: settings.redis_url,
    supervised: settings.supervised,
    accessLog: accessLogSetting !== undefined && accessLogSetting !== '' && accessLogSetting !== 'off',
    // The primary hands its id to the workers it forks (cluster/primary.ts).
    nodeId: (cluster.isWorker ? process.env[NODE_ID_ENV] : undefined) ?? randomUUID(),
    ...(workerCpus !== undefined ? { workerCpus } : {}),
  };
  // A worker binds itself (its primary said to which CPUs); one process binds as worker 0 would.
  const ownCpus = cluster.isWorker ? process.env[WORKER_CPUS_ENV] : config.workers === 1 ? workerCpus?.[0]?.join(',') : undefined;
  if (ownCpus !== undefined && ownCpus !== '') {
    try {
      bindToCpus(ownCpus.split(',').map(Number));
    } catch (err) {
      // As nginx: a worker that cannot be bound runs unbound (on the CPUs it had), and says so.
      node.log.error({ err: (err as Error).message }, 'nginx_main_worker_cpu_affinity: not bound; this process runs on the CPUs it had');
    }
  }
  // Whatever escapes every handler is logged, in each layout (cluster/process-faults.ts);
  // pino flushes its stream on exit.
  watchProcessFaults(process, node.log, (code) => process.exit(code));
  if (cluster.isWorker) return runWorker(node);
  let snapshot: Snapshot;
  try {
    snapshot = await loadSnapshot(config);
  } catch (err) {
    if (err instanceof GatewayError) {
      for (const line of err.lines) io.err(line);
      return 1;
    }
    io.err(`signet-gateway start: cannot read ${config.declarativeConfig}: ${(err as Error).message}`);
    return 1;
  }
  return config.workers === 1 ? runSingle(node, snapshot) : runPrimary(node, snapshot);
}

/**
 * Each worker slot's CPUs under nginx_main_worker_cpu_affinity, checked once before any worker
 * starts (the helper is built here, so workers only load it): a setting that leaves a worker no
 * CPU this process may run on is refused, naming the CPUs it may use.
 */
function planWorkerCpus(config: GatewayConfig, value: string): number[][] | undefined {
  const affinity = config.workerCpuAffinity;
  if (affinity === undefined || cluster.isWorker) return undefined;
  let allowed: number[];
  try {
    allowed = allowedCpus();
  } catch (err) {
    throw new ConfigError('nginx_main_worker_cpu_affinity', (err as Error).message);
  }
  const plan = Array.from({ length: config.workers }, (_, slot) => cpusForWorker(affinity, slot, allowed));
  const empty = plan.findIndex((cpus) => cpus.length === 0);
  if (empty !== -1) {
    throw new ConfigError('nginx_main_worker_cpu_affinity', `'${value}' gives worker ${empty + 1} none of the CPUs this gateway may run on (${allowed.join(',')})`);
  }
  return plan;
}

type ListenSetting = 'proxy_listen' | 'admin_listen' | 'stream_listen';

/** Builds a listen flag's helper when a listener needs it; a failure is the first such listener's setting's error. */
function buildListenHelper(config: GatewayConfig, needs: (a: ListenAddress, setting: ListenSetting) => boolean, build: () => string): void {
  const listeners: [ListenSetting, readonly ListenAddress[]][] = [['proxy_listen', config.proxyListen], ['admin_listen', config.adminListen], ['stream_listen', config.streamListen ?? []]];
  const setting = listeners.find(([name, list]) => list.some((a) => needs(a, name)))?.[0];
  if (setting === undefined) return;
  try {
    build();
  } catch (err) {
    throw new ConfigError(setting, (err as Error).message);
  }
}
