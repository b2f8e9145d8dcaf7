import type { AdminRouteHook } from '../admin/admin-types.ts';
import type { Snapshot } from '../declarative/types.ts';
import type { HealthReader } from '../health/health-view.ts';
import type { MetricsState } from './proxy-metrics.ts';
import { renderPrometheus, type NodeIdentity } from './render-prometheus.ts';

/** What GET /metrics reads: the proxy counters (summed over workers), the config, health. */
export type MetricsSource = {
  readonly state: () => MetricsState | Promise<MetricsState>;
  readonly snapshot: () => Snapshot;
  readonly health: HealthReader;
  readonly node: NodeIdentity;
};

/** `GET /metrics` on the admin listener (Kong: the Prometheus plugin's /metrics), text format 0.0.4. */
export function metricsRoute(source: MetricsSource): AdminRouteHook {
  return async (method, path) => {
    if (path !== '/metrics' || (method !== 'GET' && method !== 'HEAD')) return undefined;
    const text = renderPrometheus(await source.state(), source.snapshot(), source.health, source.node);
    return { status: 200, text, headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8' } };
  };
}
