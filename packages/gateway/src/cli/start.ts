// `signet-gateway start`: settings from flags and KONG_* env (validated once), then one process
// (--workers 1) or a node:cluster primary (admin API, health state, active probes) with proxy
// workers. Stops cleanly on SIGTERM/SIGINT.
import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { buildAdminServer, type ProxyStats } from '../admin/index.ts';
import { loadSnapshot } from '../build-gateway.ts';
import { buildGatewayWithStreams } from '../build-gateway-with-streams.ts';
import type { CommandIo } from '../cli.ts';
import { RedisHealthBus } from '../cluster/redis-health-bus.ts';
import { serveWorkerHealth } from '../cluster/serve-worker-health.ts';
import { WorkerHealth } from '../cluster/worker-health.ts';
import { clusterWorkerHub, processPrimaryPort } from '../cluster/worker-hub.ts';
import { buildGatewayConfig, ConfigError, type GatewayConfig, type ListenAddress } from '../config.ts';
import type { Snapshot } from '../declarative/types.ts';
import { GatewayError } from '../errors.ts';
import { routeHealthRequest } from '../health/health-routes.ts';
import { LocalHealth } from '../health/local-health.ts';
import type { NodeHealth } from '../health/node-health.ts';
import { accessLogHooks, addMetricsStates, combineHooks, emptyMetricsState, metricsRoute, ProxyMetrics, type MetricsState } from '../metrics/index.ts';
import { passiveHealthHooks } from '../proxy/passive-health-hooks.ts';
import type { ProxyHooks } from '../proxy/proxy-hooks.ts';
import { readStartSettings, type StartSettings } from './read-start-settings.ts';
import { stopWithParent } from '@signet/kit';

const CONFIG_TAG = 'signet:config';
type ConfigMessage = { tag: typeof CONFIG_TAG; k: 'request' } | { tag: typeof CONFIG_TAG; k: 'snapshot'; snapshot: Snapshot } | { tag: typeof CONFIG_TAG; k: 'ready'; addresses: ListenAddress[] };
const isConfigMessage = (m: unknown): m is ConfigMessage => typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === CONFIG_TAG;

// Workers push their proxy metrics to the primary, which serves GET /metrics (summed).
const METRICS_TAG = 'signet:metrics';
const METRICS_PUSH_MS = 1000;
type MetricsMessage = { tag: typeof METRICS_TAG; state: MetricsState };
const isMetricsMessage = (m: unknown): m is MetricsMessage => typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === METRICS_TAG;

/**
 * The proxy's hooks: passive health checks, metrics, and JSON access logs (one pino line per
 * request on stdout) when KONG_PROXY_ACCESS_LOG is set to anything but `off`. Off by default,
 * unlike Kong: a synchronous log line costs ~10 µs of CPU per request, about a third of the
 * proxy's (bench/gateway/algorithms.ts, docs/benchmarks.md).
 */
function proxyHooks(health: NodeHealth, metrics: ProxyMetrics, log: Logger): ProxyHooks {
  const setting = process.env.KONG_PROXY_ACCESS_LOG;
  const accessLog = setting !== undefined && setting !== '' && setting !== 'off';
  return combineHooks(passiveHealthHooks(health), metrics.hooks(), ...(accessLog ? [accessLogHooks(log)] : []));
}

const urlOf = (a: ListenAddress): string => `${a.ssl ? 'https' : 'http'}://${a.host.includes(':') ? `[${a.host}]` : a.host}:${a.port}`;

/**
 * Resolves on the first SIGTERM or SIGINT, or, when started by npm start's supervisor
 * (SIGNET_STOP_WITH_PARENT=1, checked at start), when the supervisor is gone.
 */
function stopSignal(supervised: boolean): Promise<string> {
  return new Promise((resolve) => {
    let release = () => {};
    const on = (signal: string) => {
      process.off('SIGTERM', on);
      process.off('SIGINT', on);
      release();
      resolve(signal);
    };
    process.on('SIGTERM', on);
    process.on('SIGINT', on);
    if (supervised) release = stopWithParent(() => on('supervisor gone'));
  });
}

async function listenAdmin(server: Server, address: ListenAddress): Promise<ListenAddress> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(address.port, address.host, () => resolve());
  });
  return { ...address, port: (server.address() as AddressInfo).port };
}

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/** GET /status figures from the proxy metrics (summed over workers by the caller). */
function proxyStatsOf(state: MetricsState): ProxyStats {
  let requests = 0;
  for (const n of Object.values(state.requests)) requests += n;
  return { accepted: state.acceptedConnections, active: state.activeConnections, requests };
}

/** The admin API of a node: entity endpoints, POST /config, health endpoints. */
function startAdmin(
  config: GatewayConfig,
  deps: { snapshot: () => Snapshot; applyConfig: (s: Snapshot) => void; health: NodeHealth; nodeId: string; pids: () => { master: number; workers: number[] }; metrics: () => MetricsState },
  log: Logger,
): Promise<Server[]> {
  return Promise.all(config.adminListen.map(async (address) => {
    const server = buildAdminServer({
      snapshot: deps.snapshot,
      applyConfig: deps.applyConfig,
      nodeId: deps.nodeId,
      pids: deps.pids,
      proxyStats: () => proxyStatsOf(deps.metrics()),
      ...(config.adminToken !== undefined ? { adminToken: config.adminToken } : {}),
      ...(config.plugins !== undefined ? { enabledPlugins: config.plugins } : {}),
      extraRoutes: [
        (method, path, query) => routeHealthRequest({ snapshot: deps.snapshot, health: deps.health, nodeId: deps.nodeId }, method, path, query),
        metricsRoute({ state: deps.metrics, snapshot: deps.snapshot, health: deps.health }),
      ],
      configuration: { proxy_listen: config.proxyListen.map(urlOf), admin_listen: config.adminListen.map(urlOf), stream_listen: (config.streamListen ?? []).map((a) => `${a.host}:${a.port}${a.ssl ? ' ssl' : ''}`), nginx_worker_processes: config.workers, plugins: [...(config.plugins ?? [])].sort() },
    });
    const bound = await listenAdmin(server, address);
    log.info({ url: urlOf(bound), token: config.adminToken !== undefined }, `admin listening on ${urlOf(bound)}`);
    return server;
  }));
}

function healthFor(settings: StartSettings, nodeId: string, log: Logger): LocalHealth {
  const bus = settings.redis_url === undefined
    ? undefined
    : new RedisHealthBus(settings.redis_url, { nodeId, onError: (e) => log.warn({ err: e.message }, 'redis health bus') });
  return new LocalHealth(bus ? { bus } : {});
}

/** --workers 1: proxy, admin and health in this process. */
async function runSingle(config: GatewayConfig, settings: StartSettings, snapshot: Snapshot, log: Logger): Promise<number> {
  const nodeId = randomUUID();
  const health = healthFor(settings, nodeId, log);
  health.load(snapshot);
  // The proxy listeners also serve grpc/grpcs routes; stream_listen adds tcp/tls listeners.
  const metrics = new ProxyMetrics();
  const gateway = await buildGatewayWithStreams(config, {
    snapshot,
    hooks: proxyHooks(health, metrics, log),
    configureListener: (server) => metrics.trackConnections(server),
    isAddressHealthy: (upstream, address) => health.isAddressHealthy(upstream, address.key),
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
  });
  health.onAvailabilityChange((upstream, key, up) => gateway.runtime.setAddressStatus(upstream, key, up));
  const stopped = stopSignal(settings.supervised);
  for (const a of await gateway.listen()) log.info({ url: urlOf(a) }, `proxy listening on ${urlOf(a)}`);
  const admin = await startAdmin(config, {
    snapshot: () => gateway.runtime.state.snapshot,
    applyConfig: (s) => {
      health.load(s);
      gateway.runtime.load(s);
      log.info({ hash: s.hash }, 'configuration loaded');
    },
    health,
    nodeId,
    pids: () => ({ master: process.pid, workers: [process.pid] }),
    metrics: () => metrics.state(),
  }, log);
  log.info({ workers: 1 }, 'gateway started');
  const signal = await stopped;
  log.info({ signal }, 'stopping');
  await Promise.all(admin.map(closeServer));
  await gateway.close();
  await health.close();
  log.info('stopped');
  return 0;
}

/** The cluster primary: config owner, admin API, health state and probes; forks the proxy workers. */
async function runPrimary(config: GatewayConfig, settings: StartSettings, snapshot: Snapshot, log: Logger): Promise<number> {
  const nodeId = randomUUID();
  const health = healthFor(settings, nodeId, log);
  health.load(snapshot);
  const hub = clusterWorkerHub();
  const detachHealth = serveWorkerHealth(health, hub);
  let current = snapshot;
  let stopping = false;
  const ready = new Set<number>();
  let announced = false;
  const stopped = stopSignal(settings.supervised);

  const workerMetrics = new Map<number, MetricsState>();
  cluster.on('message', (worker, message: unknown) => {
    if (isMetricsMessage(message)) workerMetrics.set(worker.id, message.state);
    if (!isConfigMessage(message)) return;
    if (message.k === 'request') {
      worker.send({ tag: CONFIG_TAG, k: 'snapshot', snapshot: current } satisfies ConfigMessage);
    } else if (message.k === 'ready') {
      ready.add(worker.id);
      if (!announced && ready.size === config.workers) {
        announced = true;
        for (const a of message.addresses) log.info({ url: urlOf(a) }, `proxy listening on ${urlOf(a)}`);
        log.info({ workers: config.workers }, 'gateway started');
      }
    }
  });
  cluster.on('exit', (worker, code, signal) => {
    ready.delete(worker.id);
    // A dead worker's connections are gone; its counters are kept (they were served).
    const last = workerMetrics.get(worker.id);
    if (last !== undefined) last.activeConnections = 0;
    if (stopping) return;
    // A worker died on its own: replace it, as nginx's master does.
    log.error({ pid: worker.process.pid, code, signal }, 'worker exited; starting another');
    cluster.fork();
  });
  // node's default round-robin hand-off of connections is kept: letting workers accept on the
  // shared socket (NODE_CLUSTER_SCHED_POLICY=none) costs less CPU per new connection but spreads
  // connections unevenly, and measured slower keep-alive and close (docs/benchmarks.md).
  for (let i = 0; i < config.workers; i++) cluster.fork();

  const admin = await startAdmin(config, {
    snapshot: () => current,
    applyConfig: (s) => {
      current = s;
      health.load(s);
      hub.broadcast({ tag: CONFIG_TAG, k: 'snapshot', snapshot: s } satisfies ConfigMessage);
      log.info({ hash: s.hash }, 'configuration loaded');
    },
    health,
    nodeId,
    pids: () => ({ master: process.pid, workers: Object.values(cluster.workers ?? {}).map((w) => w?.process.pid ?? 0) }),
    metrics: () => [...workerMetrics.values()].reduce(addMetricsStates, emptyMetricsState()),
  }, log);

  const signal = await stopped;
  stopping = true;
  log.info({ signal }, 'stopping');
  await Promise.all(admin.map(closeServer));
  const workers = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
  await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
    if (w.isDead()) return resolve();
    w.once('exit', () => resolve());
    // disconnect(): the worker closes its listeners, finishes in-flight requests, then exits.
    w.disconnect();
    setTimeout(() => w.process.kill('SIGKILL'), config.shutdownGraceMs + 2000).unref();
  })));
  detachHealth();
  await health.close();
  log.info('stopped');
  return 0;
}

/** A cluster worker: the proxy listeners, with the primary's configuration and health. */
async function runWorker(config: GatewayConfig, log: Logger): Promise<number> {
  const port = processPrimaryPort();
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
  health.load(snapshot);
  // The proxy listeners also serve grpc/grpcs routes; stream_listen adds tcp/tls listeners.
  const metrics = new ProxyMetrics();
  const gateway = await buildGatewayWithStreams(config, {
    snapshot,
    hooks: proxyHooks(health, metrics, log),
    configureListener: (server) => metrics.trackConnections(server),
    isAddressHealthy: (upstream, address) => health.isAddressHealthy(upstream, address.key),
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
  });
  health.onAvailabilityChange((upstream, key, up) => gateway.runtime.setAddressStatus(upstream, key, up));
  port.onMessage((m) => {
    if (isConfigMessage(m) && m.k === 'snapshot') {
      health.load(m.snapshot);
      gateway.runtime.load(m.snapshot);
    }
  });
  const addresses = await gateway.listen();
  port.send({ tag: CONFIG_TAG, k: 'ready', addresses } satisfies ConfigMessage);
  const pushMetrics = setInterval(() => port.send({ tag: METRICS_TAG, state: metrics.state() } satisfies MetricsMessage), METRICS_PUSH_MS);
  pushMetrics.unref();
  // The primary decides when workers stop (disconnect); signals to the group are its to handle.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => process.disconnect());
  await new Promise<void>((resolve) => process.once('disconnect', () => resolve()));
  clearInterval(pushMetrics);
  await gateway.close();
  await health.close();
  return 0;
}

/** `signet-gateway start [--config FILE] [--proxy-listen L] [--admin-listen L] [--workers N] [--ssl-cert F --ssl-cert-key F]` */
export async function start(args: readonly string[], io: CommandIo): Promise<number> {
  let settings: StartSettings;
  let config: GatewayConfig;
  try {
    settings = await readStartSettings(args, process.env, (path) => readFile(path, 'utf8'));
    config = buildGatewayConfig(settings);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`signet-gateway start: ${err.message}`);
      return 1;
    }
    throw err;
  }
  const log = pino({ base: { pid: process.pid, role: cluster.isWorker ? 'worker' : 'primary' } });
  if (cluster.isWorker) return runWorker(config, log);
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
  return config.workers === 1 ? runSingle(config, settings, snapshot, log) : runPrimary(config, settings, snapshot, log);
}
