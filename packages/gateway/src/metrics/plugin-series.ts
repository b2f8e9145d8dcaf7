// The series the prometheus plugin records in its log phase (kong/plugins/prometheus/
// exporter.lua log): requests by status, latencies and bandwidth per service/route (and
// consumer with per_consumer), as each instance's flags ask. One per process; the workers'
// states add up on the primary like the proxy counters (proxy-metrics.ts).

/** Kong's KONG_LATENCY_BUCKETS (kong_kong_latency_ms). */
export const KONG_LATENCY_BUCKETS: readonly number[] = [1, 2, 5, 7, 10, 15, 20, 30, 50, 75, 100, 200, 500, 750, 1000, 3000, 6000];
/** Kong's UPSTREAM_LATENCY_BUCKETS (kong_upstream_latency_ms, kong_request_latency_ms). */
export const UPSTREAM_LATENCY_BUCKETS: readonly number[] = [25, 50, 80, 100, 250, 400, 700, 1000, 2000, 5000, 10000, 30000, 60000];

/** Per-bucket counts (not cumulative; the last is +Inf), sum, count. */
export type SeriesHistogram = { buckets: number[]; sum: number; count: number };

/** Serializable; states of several workers add up. Keys join label values with \0. */
export type PluginSeriesState = {
  /** service, route, code, source, consumer → requests. */
  requests: Record<string, number>;
  /** service, route → histogram. */
  kongLatency: Record<string, SeriesHistogram>;
  upstreamLatency: Record<string, SeriesHistogram>;
  requestLatency: Record<string, SeriesHistogram>;
  /** service, route, direction, consumer → bytes. */
  bandwidth: Record<string, number>;
};

export function emptyPluginSeries(): PluginSeriesState {
  return { requests: {}, kongLatency: {}, upstreamLatency: {}, requestLatency: {}, bandwidth: {} };
}

function observe(into: Record<string, SeriesHistogram>, key: string, bounds: readonly number[], value: number): void {
  const h = (into[key] ??= { buckets: new Array<number>(bounds.length + 1).fill(0), sum: 0, count: 0 });
  let i = 0;
  while (i < bounds.length && value > bounds[i]!) i++;
  h.buckets[i]!++;
  h.sum += value;
  h.count++;
}

function addHistograms(into: Record<string, SeriesHistogram>, from: Readonly<Record<string, SeriesHistogram>>): void {
  for (const [key, h] of Object.entries(from)) {
    const mine = (into[key] ??= { buckets: new Array<number>(h.buckets.length).fill(0), sum: 0, count: 0 });
    h.buckets.forEach((n, i) => (mine.buckets[i] = (mine.buckets[i] ?? 0) + n));
    mine.sum += h.sum;
    mine.count += h.count;
  }
}

const addCounts = (into: Record<string, number>, from: Readonly<Record<string, number>>): void => {
  for (const [k, n] of Object.entries(from)) into[k] = (into[k] ?? 0) + n;
};

/** Adds `from` into `into`. */
export function addPluginSeries(into: PluginSeriesState, from: PluginSeriesState): PluginSeriesState {
  addCounts(into.requests, from.requests);
  addCounts(into.bandwidth, from.bandwidth);
  addHistograms(into.kongLatency, from.kongLatency);
  addHistograms(into.upstreamLatency, from.upstreamLatency);
  addHistograms(into.requestLatency, from.requestLatency);
  return into;
}

/** One request as the exporter's log sees it (what the instance's flags let through). */
export type SeriesSample = {
  readonly service: string;
  readonly route: string;
  /** With per_consumer: the consumer's username; '' otherwise. */
  readonly consumer: string;
  /** With status_code_metrics. */
  readonly status?: number;
  readonly source?: 'service' | 'kong';
  /** With latency_metrics, ms (negative: not measured). */
  readonly latencies?: { readonly kong: number; readonly upstream: number; readonly request: number };
  /** With bandwidth_metrics, bytes. */
  readonly ingress?: number;
  readonly egress?: number;
};

/** The process's plugin series. */
export class PluginSeries {
  #state = emptyPluginSeries();

  record(s: SeriesSample): void {
    const st = this.#state;
    const sr = s.service + '\0' + s.route;
    if (s.ingress !== undefined && s.ingress > 0) {
      const k = sr + '\0ingress\0' + s.consumer;
      st.bandwidth[k] = (st.bandwidth[k] ?? 0) + s.ingress;
    }
    if (s.egress !== undefined && s.egress > 0) {
      const k = sr + '\0egress\0' + s.consumer;
      st.bandwidth[k] = (st.bandwidth[k] ?? 0) + s.egress;
    }
    if (s.status !== undefined) {
      const k = sr + '\0' + s.status + '\0' + (s.source ?? 'kong') + '\0' + s.consumer;
      st.requests[k] = (st.requests[k] ?? 0) + 1;
    }
    const l = s.latencies;
    if (l !== undefined) {
      if (l.request >= 0) observe(st.requestLatency, sr, UPSTREAM_LATENCY_BUCKETS, l.request);
      if (l.upstream >= 0) observe(st.upstreamLatency, sr, UPSTREAM_LATENCY_BUCKETS, l.upstream);
      if (l.kong >= 0) observe(st.kongLatency, sr, KONG_LATENCY_BUCKETS, l.kong);
    }
  }

  state(): PluginSeriesState {
    return addPluginSeries(emptyPluginSeries(), this.#state);
  }
}

/** The one instance of this process (the prometheus plugin records into it; ProxyMetrics reports it). */
export const PLUGIN_SERIES = new PluginSeries();
