// kong/plugins/prometheus/handler.lua (log) and exporter.lua (log): each request the plugin runs
// on is recorded, with what the instance's flags ask for, into the process's series that the
// admin GET /metrics renders (metrics/render-prometheus.ts).
import { PLUGIN_SERIES } from '../../metrics/plugin-series.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import { PROMETHEUS_SCHEMA } from './schema.ts';

type PrometheusConfig = {
  readonly per_consumer: boolean | null;
  readonly status_code_metrics: boolean | null;
  readonly latency_metrics: boolean | null;
  readonly bandwidth_metrics: boolean | null;
};

/** prometheus, PRIORITY 13. */
export const PROMETHEUS_HANDLER: PluginHandler = {
  name: PROMETHEUS_SCHEMA.name,
  priority: PROMETHEUS_SCHEMA.priority,
  build(config) {
    const conf = config as PrometheusConfig;
    return {
      log(ctx, entry) {
        const d = entry.done;
        // Kong's exporter records nothing for requests without a route.
        if (d.route === undefined) return;
        PLUGIN_SERIES.record({
          service: d.service === undefined ? '' : (d.service.name ?? d.service.host),
          route: d.route.name ?? d.route.id,
          consumer: conf.per_consumer === true ? (ctx.consumer?.username ?? '') : '',
          ...(conf.status_code_metrics === true ? { status: d.status, source: d.source === 'upstream' ? 'service' : 'kong' } as const : {}),
          ...(conf.latency_metrics === true ? {
            latencies: { kong: d.proxyLatencyMs ?? d.totalMs, upstream: d.upstreamLatencyMs ?? -1, request: d.totalMs },
          } : {}),
          ...(conf.bandwidth_metrics === true ? { ingress: entry.requestSize, egress: entry.responseSize } : {}),
        });
      },
    };
  },
};
