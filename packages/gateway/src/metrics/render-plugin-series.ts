// The prometheus plugin's families in the text format (kong/plugins/prometheus/exporter.lua
// metric names, labels and buckets): rendered instead of the built-in request families when a
// prometheus plugin is configured, so one family never carries two label sets.
import { KONG_LATENCY_BUCKETS, UPSTREAM_LATENCY_BUCKETS, type PluginSeriesState, type SeriesHistogram } from './plugin-series.ts';

type Labels = readonly (readonly [string, string])[];
const esc = (v: string): string => v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
const labels = (pairs: Labels): string => '{' + pairs.map(([k, v]) => `${k}="${esc(v)}"`).join(',') + '}';

function histogram(out: string[], name: string, help: string, bounds: readonly number[], data: Readonly<Record<string, SeriesHistogram>>): void {
  out.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
  for (const [key, h] of Object.entries(data)) {
    const [service = '', route = ''] = key.split('\0');
    const base: Labels = [['service', service], ['route', route], ['workspace', 'default']];
    let cumulative = 0;
    bounds.forEach((le, i) => {
      cumulative += h.buckets[i] ?? 0;
      out.push(`${name}_bucket${labels([...base, ['le', String(le)]])} ${cumulative}`);
    });
    out.push(`${name}_bucket${labels([...base, ['le', '+Inf']])} ${h.count}`);
    out.push(`${name}_count${labels(base)} ${h.count}`, `${name}_sum${labels(base)} ${h.sum}`);
  }
}

/** Appends the plugin's families to `out`. */
export function renderPluginSeries(out: string[], s: PluginSeriesState): void {
  // Kong's library counts its own failures here; this exporter has none to count.
  out.push('# HELP kong_nginx_metric_errors_total Number of nginx-lua-prometheus errors', '# TYPE kong_nginx_metric_errors_total counter', 'kong_nginx_metric_errors_total 0');
  out.push('# HELP kong_bandwidth_bytes Total bandwidth (ingress/egress) throughput in bytes', '# TYPE kong_bandwidth_bytes counter');
  for (const [key, n] of Object.entries(s.bandwidth)) {
    const [service = '', route = '', direction = '', consumer = ''] = key.split('\0');
    out.push(`kong_bandwidth_bytes${labels([['service', service], ['route', route], ['direction', direction], ['workspace', 'default'], ['consumer', consumer]])} ${n}`);
  }
  out.push('# HELP kong_http_requests_total HTTP status codes per consumer/service/route in Kong', '# TYPE kong_http_requests_total counter');
  for (const [key, n] of Object.entries(s.requests)) {
    const [service = '', route = '', code = '', source = '', consumer = ''] = key.split('\0');
    out.push(`kong_http_requests_total${labels([['service', service], ['route', route], ['code', code], ['source', source], ['workspace', 'default'], ['consumer', consumer]])} ${n}`);
  }
  histogram(out, 'kong_kong_latency_ms', 'Latency added by Kong and enabled plugins for each service/route in Kong', KONG_LATENCY_BUCKETS, s.kongLatency);
  histogram(out, 'kong_request_latency_ms', 'Total latency incurred during requests for each service/route in Kong', UPSTREAM_LATENCY_BUCKETS, s.requestLatency);
  histogram(out, 'kong_upstream_latency_ms', 'Latency added by upstream response for each service/route in Kong', UPSTREAM_LATENCY_BUCKETS, s.upstreamLatency);
}
