import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { buildAdminServer, KONG_VERSION, type ProxyStats } from '../admin/index.ts';
import type { GatewayConfig, ListenAddress } from '../config.ts';
import type { Snapshot } from '../declarative/types.ts';
import { routeHealthRequest } from '../health/health-routes.ts';
import type { NodeHealth } from '../health/node-health.ts';
import { metricsRoute, type MetricsState } from '../metrics/index.ts';
import { listenUrl } from './listen-url.ts';
import { proxyCacheRoute } from '../plugins/proxy-cache/api.ts';
import type { CacheCommand, CacheReply } from '../plugins/proxy-cache/cache-commands.ts';
import { listenOn } from '../listen/listen-on.ts';
import { formatCpuAffinity } from '../native/cpu-affinity-setting.ts';

/** What a node's admin API reads and drives. */
export type AdminDeps = {
  readonly snapshot: () => Snapshot;
  /** Makes a validated configuration the node's; throwing (or rejecting) keeps the old one (500). */
  readonly applyConfig: (s: Snapshot) => void | Promise<void>;
  readonly health: NodeHealth;
  readonly nodeId: string;
  readonly pids: () => { master: number; workers: number[] };
  /** The proxy metrics, summed over the node's workers. */
  readonly metrics: () => MetricsState;
  /** Runs a proxy-cache admin command in every process holding caches (the workers). */
  readonly proxyCache: (command: CacheCommand) => Promise<readonly CacheReply[]>;
};

/** GET /status figures from the proxy metrics. */
function proxyStatsOf(state: MetricsState): ProxyStats {
  let requests = 0;
  for (const n of Object.values(state.requests)) requests += n;
  return { accepted: state.acceptedConnections, active: state.activeConnections, requests };
}

async function listenAdmin(server: Server, address: ListenAddress): Promise<ListenAddress> {
  // The admin API lives in one process, so `reuseport` (Kong's default admin_listen has it)
  // would spread nothing; without it a second node started on the same port fails loudly
  // instead of sharing the port and answering half of its calls.
  await listenOn(server, { ...address, reuseport: false });
  return { ...address, port: (server.address() as AddressInfo).port };
}

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * The admin API of a node on every admin listener: entity endpoints, POST /config, health
 * endpoints, /metrics. Resolves with the function that closes them.
 */
export async function startAdmin(config: GatewayConfig, deps: AdminDeps, log: Logger): Promise<() => Promise<void>> {
  const servers = await Promise.all(config.adminListen.map(async (address) => {
    const server = buildAdminServer({
      snapshot: deps.snapshot,
      applyConfig: deps.applyConfig,
      nodeId: deps.nodeId,
      pids: deps.pids,
      proxyStats: () => proxyStatsOf(deps.metrics()),
      ...(config.adminToken !== undefined ? { adminToken: config.adminToken } : {}),
      ...(config.plugins !== undefined ? { enabledPlugins: config.plugins } : {}),
      ...(config.redis !== undefined ? { redisDefaults: config.redis } : {}),
      extraRoutes: [
        (method, path, query) => routeHealthRequest({ snapshot: deps.snapshot, health: deps.health, nodeId: deps.nodeId }, method, path, query),
        metricsRoute({ state: deps.metrics, snapshot: deps.snapshot, health: deps.health, node: { id: deps.nodeId, version: KONG_VERSION } }),
        proxyCacheRoute({ snapshot: deps.snapshot, ask: deps.proxyCache }),
      ],
      configuration: {
        proxy_listen: config.proxyListen.map(listenUrl),
        admin_listen: config.adminListen.map(listenUrl),
        stream_listen: (config.streamListen ?? []).map((a) => `${a.host}:${a.port}${a.ssl ? ' ssl' : ''}`),
        nginx_worker_processes: config.workers,
        ...(config.workerCpuAffinity !== undefined ? { nginx_main_worker_cpu_affinity: formatCpuAffinity(config.workerCpuAffinity) } : {}),
        plugins: [...(config.plugins ?? [])].sort(),
      },
    });
    const bound = await listenAdmin(server, address);
    log.info({ url: listenUrl(bound), token: config.adminToken !== undefined }, `admin listening on ${listenUrl(bound)}`);
    return server;
  }));
  return async () => {
    await Promise.all(servers.map(closeServer));
  };
}
