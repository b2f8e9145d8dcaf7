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
  // A linear search: proxied latencies fall in the first few buckets.
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

/** An entity as the exporter labels it (Kong: the name, else the service's host or the route's id). */
type Named = { readonly name: string | null };

/**
 * The series keys of one service/route/consumer, made on its first request and kept per route
 * object (a reload makes new ones), so a request builds no label strings.
 */
export type SeriesLabels = {
  /** service \0 route */
  readonly sr: string;
  readonly ingress: string;
  readonly egress: string;
  /** status (negative: the gateway's own answer) → the requests key. */
  readonly byCode: Map<number, string>;
  readonly consumer: string;
};

/** The process's plugin series. */
export class PluginSeries {
  readonly #state = emptyPluginSeries();
  readonly #labels = new WeakMap<object, Map<string, SeriesLabels>>();

  /** The keys of a route's series (with per_consumer, `consumer` is the username; '' otherwise). */
  labels(route: Named & { readonly id: string }, service: (Named & { readonly host: string }) | undefined, consumer: string): SeriesLabels {
    let byConsumer = this.#labels.get(route);
    if (byConsumer === undefined) this.#labels.set(route, (byConsumer = new Map<string, SeriesLabels>()));
    let l = byConsumer.get(consumer);
    if (l === undefined) {
      const sr = (service === undefined ? '' : (service.name ?? service.host)) + '\0' + (route.name ?? route.id);
      l = { sr, ingress: sr + '\0ingress\0' + consumer, egress: sr + '\0egress\0' + consumer, byCode: new Map(), consumer };
      byConsumer.set(consumer, l);
    }
    return l;
  }

  /** status_code_metrics: one request with this status, from the service or the gateway itself. */
  count(l: SeriesLabels, status: number, source: 'service' | 'kong'): void {
    const code = source === 'service' ? status : -status;
    let k = l.byCode.get(code);
    if (k === undefined) l.byCode.set(code, (k = l.sr + '\0' + status + '\0' + source + '\0' + l.consumer));
    const requests = this.#state.requests;
    requests[k] = (requests[k] ?? 0) + 1;
  }

  /** latency_metrics, ms (a negative one was not measured). */
  latencies(l: SeriesLabels, kong: number, upstream: number, request: number): void {
    const st = this.#state;
    if (request >= 0) observe(st.requestLatency, l.sr, UPSTREAM_LATENCY_BUCKETS, request);
    if (upstream >= 0) observe(st.upstreamLatency, l.sr, UPSTREAM_LATENCY_BUCKETS, upstream);
    if (kong >= 0) observe(st.kongLatency, l.sr, KONG_LATENCY_BUCKETS, kong);
  }

  /** bandwidth_metrics, bytes. */
  bandwidth(l: SeriesLabels, ingress: number, egress: number): void {
    const b = this.#state.bandwidth;
    if (ingress > 0) b[l.ingress] = (b[l.ingress] ?? 0) + ingress;
    if (egress > 0) b[l.egress] = (b[l.egress] ?? 0) + egress;
  }

  state(): PluginSeriesState {
    return addPluginSeries(emptyPluginSeries(), this.#state);
  }
}

/** The one instance of this process (the prometheus plugin records into it; ProxyMetrics reports it). */
export const PLUGIN_SERIES = new PluginSeries();
