/** Proxy counters (requests, latency histograms, connections), summable across workers. */
export { addMetricsStates, emptyMetricsState, LATENCY_BUCKETS_MS, ProxyMetrics, type MetricsState } from './proxy-metrics.ts';
/** Prometheus text rendering and the admin GET /metrics route. */
export { renderPrometheus } from './render-prometheus.ts';
export { metricsRoute, type MetricsSource } from './metrics-route.ts';
/** JSON access logs and hook composition. */
export { accessLogFields, accessLogHooks, combineHooks, type AccessLogger } from './access-log.ts';
