import { buildGateway, type Gateway } from '../build-gateway.ts';
import type { Snapshot } from '../declarative/types.ts';
import type { NodeHealth } from '../health/node-health.ts';
import { accessLogHooks, combineHooks, ProxyMetrics } from '../metrics/index.ts';
import { passiveHealthHooks } from '../proxy/passive-health-hooks.ts';
import { setPluginLogger } from '../plugins/index.ts';
import type { NodeStart } from './node-start.ts';

/** A process's proxy (HTTP, gRPC, stream listeners, not bound yet) and its metrics. */
export type DataPlane = { readonly gateway: Gateway; readonly metrics: ProxyMetrics };

/**
 * Builds the proxy of one process (the single process, or a worker) over `health`: passive
 * checks, metrics and, when asked, JSON access logs on every attempt and request. Access logs
 * are off by default, unlike Kong: a synchronous log line costs ~10 µs of CPU per request,
 * about a third of the proxy's (bench/gateway/algorithms.ts, docs/benchmarks.md). Health
 * changes take addresses out of the balancers and put them back.
 */
export async function startDataPlane(start: NodeStart, snapshot: Snapshot, health: NodeHealth): Promise<DataPlane> {
  const { config, log } = start;
  // Logging plugins report their delivery failures in this process's log.
  setPluginLogger(log);
  const metrics = new ProxyMetrics();
  const gateway = await buildGateway(config, {
    snapshot,
    hooks: combineHooks(passiveHealthHooks(health), metrics.hooks(), ...(start.accessLog ? [accessLogHooks(log)] : [])),
    configureListener: (server) => metrics.trackConnections(server),
    isAddressHealthy: (upstream, address) => health.isAddressHealthy(upstream, address.key),
    warn: (message) => log.warn(message),
    info: (message) => log.info(message),
  });
  health.onAvailabilityChange((upstream, key, up) => gateway.runtime.setAddressStatus(upstream, key, up));
  return { gateway, metrics };
}
