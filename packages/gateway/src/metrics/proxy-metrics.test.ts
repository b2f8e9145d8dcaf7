import assert from 'node:assert/strict';
import { test } from 'node:test';
import { route, service, snapshot } from '../../test/snapshot.fixture.ts';
import { find, parsePrometheusText } from '../../test/metrics/prometheus-text.fixture.ts';
import type { RequestDone } from '../proxy/proxy-hooks.ts';
import { addMetricsStates, emptyMetricsState, LATENCY_BUCKETS_MS, ProxyMetrics } from './proxy-metrics.ts';
import { renderPrometheus } from './render-prometheus.ts';

const svc = service({ name: 'a "quoted"\nname', host: 'x' });
const rt = route({ name: 'r', service: { id: svc.id } });
const done = (over: Partial<RequestDone>): RequestDone => ({
  requestId: 'id', method: 'GET', uri: '/', clientIp: '127.0.0.1', status: 200, source: 'upstream', service: svc, route: rt,
  upstreamAddress: '127.0.0.1:1', proxyLatencyMs: 0.5, upstreamLatencyMs: 12, totalMs: 13, ...over,
});
const noHealth = { checksOn: () => false, addressHealth: () => undefined };
const NODE = { id: 'node-1', version: '3.10.0' };

test('requests by code and source, histograms bucketed at Kong\'s bounds, states add up, escaping', () => {
  const m = new ProxyMetrics();
  m.record(done({}));
  m.record(done({ upstreamLatencyMs: 60_001 }));
  m.record(done({ status: 502, source: 'kong', upstreamLatencyMs: undefined }));
  m.record(done({ status: 404, source: 'kong', service: undefined, route: undefined, proxyLatencyMs: undefined, upstreamLatencyMs: undefined }));
  const state = addMetricsStates(addMetricsStates(emptyMetricsState(), m.state()), m.state());
  const p = parsePrometheusText(renderPrometheus(state, snapshot({ services: [svc], routes: [rt] }), noHealth, NODE));
  const name = 'a "quoted"\nname';
  assert.equal(find(p, 'kong_http_requests_total', { service: name, route: 'r', code: '200', source: 'service' })[0]?.value, 4);
  assert.equal(find(p, 'kong_http_requests_total', { service: name, code: '502', source: 'kong' })[0]?.value, 2);
  assert.equal(find(p, 'kong_http_requests_total', { service: '', route: '', code: '404' })[0]?.value, 2);
  const buckets = find(p, 'kong_upstream_latency_ms_bucket', { service: name });
  assert.equal(buckets.length, LATENCY_BUCKETS_MS.length + 1);
  assert.equal(find(p, 'kong_upstream_latency_ms_bucket', { service: name, le: '10' })[0]?.value, 0);
  assert.equal(find(p, 'kong_upstream_latency_ms_bucket', { service: name, le: '15' })[0]?.value, 2, '12 ms falls in le=15');
  assert.equal(find(p, 'kong_upstream_latency_ms_bucket', { service: name, le: '60000' })[0]?.value, 2);
  assert.equal(find(p, 'kong_upstream_latency_ms_bucket', { service: name, le: '+Inf' })[0]?.value, 4);
  assert.equal(find(p, 'kong_upstream_latency_ms_sum', { service: name })[0]?.value, 2 * (12 + 60_001));
  assert.equal(find(p, 'kong_request_latency_ms_count', { service: name })[0]?.value, 6);
});

test("the node families: requests total, datastore, node info, and each worker's heap by pid", () => {
  const m = new ProxyMetrics();
  m.record(done({}));
  m.record(done({ status: 404, source: 'kong', service: undefined, route: undefined }));
  const mine = m.state();
  // Another worker's state, as the primary receives it: its own pid and heap.
  const other = { ...emptyMetricsState(), requests: { [['svc', 'r', '200', 'service'].join('\0')]: 5 }, workerHeapBytes: { '999999': 1234 } };
  const p = parsePrometheusText(renderPrometheus(addMetricsStates(addMetricsStates(emptyMetricsState(), mine), other), snapshot({}), noHealth, NODE));
  assert.equal(find(p, 'kong_nginx_requests_total', { node_id: 'node-1', subsystem: 'http' })[0]?.value, 7);
  assert.equal(find(p, 'kong_datastore_reachable', {})[0]?.value, 1);
  assert.equal(find(p, 'kong_node_info', { node_id: 'node-1', version: '3.10.0' })[0]?.value, 1);
  const heaps = find(p, 'kong_memory_workers_lua_vms_bytes', { node_id: 'node-1', kong_subsystem: 'http' });
  assert.deepEqual(heaps.map((h) => h.labels.pid).sort(), [String(process.pid), '999999'].sort());
  assert.equal(find(p, 'kong_memory_workers_lua_vms_bytes', { pid: '999999' })[0]?.value, 1234);
  assert.ok((find(p, 'kong_memory_workers_lua_vms_bytes', { pid: String(process.pid) })[0]?.value ?? 0) > 1_000_000, 'a V8 heap in use is megabytes');
});
