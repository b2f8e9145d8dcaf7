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
    const perConsumer = conf.per_consumer === true;
    const statusCodes = conf.status_code_metrics === true;
    const latencies = conf.latency_metrics === true;
    const bandwidth = conf.bandwidth_metrics === true;
    return {
      log(ctx, entry) {
        const d = entry.done;
        // Kong's exporter records nothing for requests without a route.
        if (d.route === undefined) return;
        const labels = PLUGIN_SERIES.labels(d.route, d.service, perConsumer ? (ctx.consumer?.username ?? '') : '');
        if (statusCodes) PLUGIN_SERIES.count(labels, d.status, d.source === 'upstream' ? 'service' : 'kong');
        if (latencies) PLUGIN_SERIES.latencies(labels, d.proxyLatencyMs ?? d.totalMs, d.upstreamLatencyMs ?? -1, d.totalMs);
        if (bandwidth) PLUGIN_SERIES.bandwidth(labels, entry.requestSize, entry.responseSize);
      },
    };
  },
};
