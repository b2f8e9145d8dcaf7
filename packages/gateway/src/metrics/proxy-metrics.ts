import type { Server } from 'node:net';
import type { ProxyHooks, RequestDone } from '../proxy/proxy-hooks.ts';
import { addPluginSeries, emptyPluginSeries, PLUGIN_SERIES, type PluginSeriesState } from './plugin-series.ts';

/**
 * Latency histogram buckets in ms: the Prometheus plugin's DEFAULT_BUCKETS
 * (kong/plugins/prometheus/exporter.lua).
 */
export const LATENCY_BUCKETS_MS: readonly number[] = [1, 2, 5, 7, 10, 15, 20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 200, 300, 400, 500, 1000, 2000, 5000, 10000, 30000, 60000];

/** A histogram's state: per-bucket counts (not cumulative; the last is +Inf), sum, count. */
export type HistogramState = { buckets: number[]; sum: number; count: number };

/** Serializable counters of one proxy process; states of several workers add up. */
export type MetricsState = {
  /** `service\0route\0code\0source` → requests. */
  requests: Record<string, number>;
  /** `service\0route` → histogram. */
  upstreamLatency: Record<string, HistogramState>;
  kongLatency: Record<string, HistogramState>;
  requestLatency: Record<string, HistogramState>;
  activeConnections: number;
  acceptedConnections: number;
  /** pid → the worker's V8 heap in use, bytes (Kong's kong_memory_workers_lua_vms_bytes); one entry per process, never summed. */
  workerHeapBytes: Record<string, number>;
  /** What the prometheus plugin recorded (plugin-series.ts). */
  plugin: PluginSeriesState;
};

export function emptyMetricsState(): MetricsState {
  return { requests: {}, upstreamLatency: {}, kongLatency: {}, requestLatency: {}, activeConnections: 0, acceptedConnections: 0, workerHeapBytes: {}, plugin: emptyPluginSeries() };
}

function observe(into: Record<string, HistogramState>, key: string, ms: number): void {
  let h = into[key];
  if (h === undefined) {
    h = { buckets: new Array<number>(LATENCY_BUCKETS_MS.length + 1).fill(0), sum: 0, count: 0 };
    into[key] = h;
  }
  let i = 0;
  while (i < LATENCY_BUCKETS_MS.length && ms > LATENCY_BUCKETS_MS[i]!) i++;
  h.buckets[i]!++;
  h.sum += ms;
  h.count++;
}

function addHistograms(into: Record<string, HistogramState>, from: Readonly<Record<string, HistogramState>>): void {
  for (const [key, h] of Object.entries(from)) {
    const mine = (into[key] ??= { buckets: new Array<number>(h.buckets.length).fill(0), sum: 0, count: 0 });
    h.buckets.forEach((n, i) => (mine.buckets[i] = (mine.buckets[i] ?? 0) + n));
    mine.sum += h.sum;
    mine.count += h.count;
  }
}

/** Adds `from` into `into` (the primary sums its workers' states). */
export function addMetricsStates(into: MetricsState, from: MetricsState): MetricsState {
  for (const [key, n] of Object.entries(from.requests)) into.requests[key] = (into.requests[key] ?? 0) + n;
  addHistograms(into.upstreamLatency, from.upstreamLatency);
  addHistograms(into.kongLatency, from.kongLatency);
  addHistograms(into.requestLatency, from.requestLatency);
  into.activeConnections += from.activeConnections;
  into.acceptedConnections += from.acceptedConnections;
  // Older workers' messages (during a rolling restart) may lack it.
  Object.assign(into.workerHeapBytes, from.workerHeapBytes ?? {});
  // Older workers' messages (during a rolling restart) may lack the plugin part.
  if (from.plugin !== undefined) addPluginSeries(into.plugin, from.plugin);
  return into;
}

/** An entity's label: its name, else its id (Kong's Prometheus plugin does the same). */
const labelOf = (e: { readonly name: string | null; readonly id: string } | undefined): string => (e === undefined ? '' : (e.name ?? e.id));

/**
 * One proxy process's metrics: requests by service/route/status, latency histograms, client
 * connections. Fed by {@link ProxyMetrics.hooks} and {@link ProxyMetrics.trackConnections}.
 */
export class ProxyMetrics {
  readonly #state = emptyMetricsState();
  // Label keys per route object (a reload makes new ones): no string building per request.
  readonly #keys = new WeakMap<object, { sr: string; byCode: Map<number, string> }>();
  readonly #noRoute = { sr: '\0', byCode: new Map<number, string>() };

  /** Counts one finished request. */
  record(done: RequestDone): void {
    const s = this.#state;
    let keys = done.route === undefined ? this.#noRoute : this.#keys.get(done.route);
    if (keys === undefined) {
      keys = { sr: labelOf(done.service) + '\0' + labelOf(done.route), byCode: new Map() };
      this.#keys.set(done.route!, keys);
    }
    const sr = keys.sr;
    const code = done.source === 'upstream' ? done.status : -done.status;
    let key = keys.byCode.get(code);
    if (key === undefined) {
      key = sr + '\0' + done.status + '\0' + (done.source === 'upstream' ? 'service' : 'kong');
      keys.byCode.set(code, key);
    }
    s.requests[key] = (s.requests[key] ?? 0) + 1;
    if (done.upstreamLatencyMs !== undefined) observe(s.upstreamLatency, sr, done.upstreamLatencyMs);
    if (done.proxyLatencyMs !== undefined) observe(s.kongLatency, sr, done.proxyLatencyMs);
    observe(s.requestLatency, sr, done.totalMs);
  }

  /** The hooks that feed these metrics. */
  hooks(): Required<Pick<ProxyHooks, 'onRequestDone'>> {
    return { onRequestDone: (done) => this.record(done) };
  }

  /** Counts a proxy listener's client connections (the active-connections gauge). */
  trackConnections(server: Server): void {
    server.on('connection', (socket) => {
      this.#state.activeConnections++;
      this.#state.acceptedConnections++;
      socket.once('close', () => this.#state.activeConnections--);
    });
  }

  /** A copy of the current counters (sent from workers to the primary as is). */
  state(): MetricsState {
    const state = addMetricsStates(emptyMetricsState(), this.#state);
    addPluginSeries(state.plugin, PLUGIN_SERIES.state());
    // Read when the state is sent (each push to the primary, or a scrape with one process), not per request.
    state.workerHeapBytes[String(process.pid)] = process.memoryUsage().heapUsed;
    return state;
  }
}
