import type { Snapshot } from '../declarative/types.ts';
import { addressOf } from '../health/health-registry.ts';
import type { HealthReader } from '../health/health-view.ts';
import { isUp } from '../health/target-state.ts';
import { LATENCY_BUCKETS_MS, type HistogramState, type MetricsState } from './proxy-metrics.ts';
import { renderPluginSeries } from './render-plugin-series.ts';

// Prometheus text exposition format 0.0.4 (prometheus.io/docs/instrumenting/exposition_formats):
// label values escape backslash, double quote and newline.
function esc(v: string): string {
  return v.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function labels(pairs: readonly (readonly [string, string])[]): string {
  return '{' + pairs.map(([k, v]) => `${k}="${esc(v)}"`).join(',') + '}';
}

function histogram(out: string[], name: string, help: string, data: Readonly<Record<string, HistogramState>>): void {
  out.push(`# HELP ${name} ${help}`, `# TYPE ${name} histogram`);
  for (const [key, h] of Object.entries(data)) {
    const [service = '', route = ''] = key.split('\0');
    const base: [string, string][] = [['service', service], ['route', route]];
    let cumulative = 0;
    LATENCY_BUCKETS_MS.forEach((le, i) => {
      cumulative += h.buckets[i] ?? 0;
      out.push(`${name}_bucket${labels([...base, ['le', String(le)]])} ${cumulative}`);
    });
    out.push(`${name}_bucket${labels([...base, ['le', '+Inf']])} ${h.count}`);
    out.push(`${name}_sum${labels(base)} ${h.sum}`, `${name}_count${labels(base)} ${h.count}`);
  }
}

const HEALTH_STATES = ['healthy', 'unhealthy', 'dns_error', 'healthchecks_off'] as const;

/**
 * The GET /metrics body: metric names and labels as Kong's Prometheus plugin exposes them
 * (kong/plugins/prometheus/exporter.lua): kong_http_requests_total, kong_upstream_latency_ms,
 * kong_kong_latency_ms, kong_request_latency_ms, kong_upstream_target_health,
 * kong_nginx_connections_total, and the node's own: kong_nginx_requests_total,
 * kong_datastore_reachable, kong_node_info, kong_memory_workers_lua_vms_bytes.
 */
export function renderPrometheus(state: MetricsState, snapshot: Snapshot, health: HealthReader, node: NodeIdentity): string {
  const out: string[] = [];
  // A configured prometheus plugin owns the request families (Kong's labels, buckets and flags);
  // without one, the gateway's built-in ones are shown.
  const instances = snapshot.plugins.filter((p) => p.name === 'prometheus' && p.enabled);
  if (instances.length > 0) {
    renderPluginSeries(out, state.plugin);
  } else {
    out.push('# HELP kong_http_requests_total HTTP status codes per service/route in Kong', '# TYPE kong_http_requests_total counter');
    for (const [key, n] of Object.entries(state.requests)) {
      const [service = '', route = '', code = '', source = ''] = key.split('\0');
      out.push(`kong_http_requests_total${labels([['service', service], ['route', route], ['code', code], ['source', source]])} ${n}`);
    }
    histogram(out, 'kong_upstream_latency_ms', 'Latency added by upstream response for each service/route in Kong', state.upstreamLatency);
    histogram(out, 'kong_kong_latency_ms', 'Latency added by Kong for each service/route in Kong', state.kongLatency);
    histogram(out, 'kong_request_latency_ms', 'Total latency incurred during requests for each service/route in Kong', state.requestLatency);
  }
  // With the plugin, target health only when an instance asks (upstream_health_metrics), with Kong's subsystem label.
  const healthOn = instances.length === 0 || instances.some((p) => p.config.upstream_health_metrics === true);
  if (healthOn) renderTargetHealth(out, snapshot, health, instances.length > 0);
  out.push('# HELP kong_nginx_connections_total Number of connections by subsystem', '# TYPE kong_nginx_connections_total gauge');
  if (instances.length > 0) {
    // Kong's exporter labels (node_id, subsystem, state). Node accepts every connection it handles,
    // and counts no reading/writing/waiting split: those states are not shown.
    const conn = (s: string, n: number) => out.push(`kong_nginx_connections_total${labels([['node_id', node.id], ['subsystem', 'http'], ['state', s]])} ${n}`);
    conn('accepted', state.acceptedConnections);
    conn('handled', state.acceptedConnections);
    conn('total', totalRequests(state));
    conn('active', state.activeConnections);
  } else {
    out.push(`kong_nginx_connections_total{state="active"} ${state.activeConnections}`);
    out.push(`kong_nginx_connections_total{state="accepted"} ${state.acceptedConnections}`);
  }
  renderNode(out, state, node);
  return out.join('\n') + '\n';
}

function renderTargetHealth(out: string[], snapshot: Snapshot, health: HealthReader, subsystem: boolean): void {
  out.push('# HELP kong_upstream_target_health Health status of targets of upstream. States = healthchecks_off|healthy|unhealthy|dns_error, value is 1 when state is populated.', '# TYPE kong_upstream_target_health gauge');
  for (const upstream of snapshot.upstreams) {
    const on = health.checksOn(upstream.name);
    for (const t of snapshot.targets) {
      if (t.upstream.id !== upstream.id) continue;
      const address = addressOf(t.target).key;
      const h = on && t.weight > 0 ? health.addressHealth(upstream.name, address) : undefined;
      const state = h === undefined ? 'healthchecks_off' : isUp(h) ? 'healthy' : 'unhealthy';
      for (const s of HEALTH_STATES) {
        const pairs: [string, string][] = [['upstream', upstream.name], ['target', t.target], ['address', address], ['state', s]];
        if (subsystem) pairs.push(['subsystem', 'http']);
        out.push(`kong_upstream_target_health${labels(pairs)} ${s === state ? 1 : 0}`);
      }
    }
  }
}

/** Every HTTP request answered: each one is counted once in `requests`, whatever its labels. */
function totalRequests(state: MetricsState): number {
  let n = 0;
  for (const count of Object.values(state.requests)) n += count;
  return n;
}

/** Who this node is, for kong_node_info and the node_id labels (the admin API's `node_id` and `version`). */
export type NodeIdentity = { readonly id: string; readonly version: string };

/**
 * The node families of Kong's exporter (kong/plugins/prometheus/exporter.lua). DB-less, the
 * datastore is always reachable (Kong's "off" connector connects). A worker's V8 heap in use
 * stands for its Lua VM's allocated bytes; there are no shared dicts or nginx timers to report.
 */
function renderNode(out: string[], state: MetricsState, node: NodeIdentity): void {
  out.push('# HELP kong_nginx_requests_total Number of requests total', '# TYPE kong_nginx_requests_total gauge');
  out.push(`kong_nginx_requests_total${labels([['node_id', node.id], ['subsystem', 'http']])} ${totalRequests(state)}`);
  out.push('# HELP kong_datastore_reachable Datastore reachable from Kong, 0 is unreachable', '# TYPE kong_datastore_reachable gauge', 'kong_datastore_reachable 1');
  out.push('# HELP kong_node_info Kong Node metadata information', '# TYPE kong_node_info gauge');
  out.push(`kong_node_info${labels([['node_id', node.id], ['version', node.version]])} 1`);
  out.push('# HELP kong_memory_workers_lua_vms_bytes Allocated bytes in worker Lua VM', '# TYPE kong_memory_workers_lua_vms_bytes gauge');
  for (const [pid, bytes] of Object.entries(state.workerHeapBytes).sort(([a], [b]) => Number(a) - Number(b))) {
    out.push(`kong_memory_workers_lua_vms_bytes${labels([['node_id', node.id], ['pid', pid], ['kong_subsystem', 'http']])} ${bytes}`);
  }
}
