// prometheus against a real two-worker gateway: cases from Kong's spec/03-plugins/26-prometheus/
// 02-access_spec.lua (requests by status and source, consumers with per_consumer, a plugin's
// 401) and 07-optional_fields_spec.lua (each flag adds its families): Kong's names, labels and
// buckets on the admin GET /metrics, summed over the workers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { pollUntil } from '@signet/kit';
import { find, parsePrometheusText, type Parsed } from '../metrics/prometheus-text.fixture.ts';
import { startPluginGateway } from './plugins.fixture.ts';

const yml = (upstream: string): string => `_format_version: "3.0"
plugins:
  - name: prometheus
    config: { status_code_metrics: true, latency_metrics: true, bandwidth_metrics: true, upstream_health_metrics: true }
consumers: [{ username: alice, keyauth_credentials: [{ key: alice-key }] }]
upstreams: [{ name: pool, targets: [{ target: '${upstream.replace('http://', '')}' }] }]
services:
  - name: mock-service
    url: ${upstream}
    routes:
      - { name: http-route, hosts: [mock.test] }
  - name: auth-service
    url: ${upstream}
    routes:
      - name: auth-route
        hosts: [auth.test]
        plugins: [{ name: key-auth }, { name: prometheus, config: { per_consumer: true, status_code_metrics: true } }]
  - name: pooled
    host: pool
    routes: [{ name: pooled-route, hosts: [pool.test] }]
`;

async function metrics(admin: string): Promise<Parsed> {
  const res = await request(`${admin}/metrics`);
  assert.equal(res.statusCode, 200);
  return parsePrometheusText(await res.body.text());
}
const value = (p: Parsed, name: string, labels: Record<string, string>): number | undefined => find(p, name, labels)[0]?.value;

test('prometheus: Kong\'s metrics for the requests it runs on', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const path of ['/status/200', '/a', '/b']) assert.equal((await g.call(path, { headers: { Host: 'mock.test' } })).status, 200);
  assert.equal((await g.call('/', { headers: { Host: 'auth.test', apikey: 'alice-key' } })).status, 200);
  assert.equal((await g.call('/', { headers: { Host: 'auth.test' } })).status, 401);
  assert.equal((await g.call('/', { headers: { Host: 'pool.test' } })).status, 200);
  assert.equal((await g.call('/', { headers: { Host: 'nowhere.test' } })).status, 404);

  const p = await pollUntil(async () => {
    const m = await metrics(g.admin);
    // Every count this test reads, since each worker pushes its own once a second.
    return value(m, 'kong_http_requests_total', { service: 'mock-service', route: 'http-route', code: '200' }) === 3
      && value(m, 'kong_http_requests_total', { service: 'auth-service', code: '401' }) === 1
      && value(m, 'kong_http_requests_total', { service: 'auth-service', code: '200', consumer: 'alice' }) === 1
      && value(m, 'kong_upstream_latency_ms_bucket', { route: 'http-route', le: '+Inf' }) === 3 ? m : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200, what: 'the requests to show in /metrics (both workers)' });

  assert.equal(value(p, 'kong_nginx_metric_errors_total', {}), 0);
  assert.equal(value(p, 'kong_http_requests_total', { service: 'mock-service', route: 'http-route', code: '200', source: 'service', workspace: 'default', consumer: '' }), 3);
  // The route's own instance (per_consumer) wins over the global one on auth-route.
  assert.equal(value(p, 'kong_http_requests_total', { service: 'auth-service', route: 'auth-route', code: '200', source: 'service', consumer: 'alice' }), 1);
  assert.equal(value(p, 'kong_http_requests_total', { service: 'auth-service', route: 'auth-route', code: '401', source: 'kong', workspace: 'default', consumer: '' }), 1);
  assert.equal(find(p, 'kong_request_latency_ms_count', { route: 'auth-route' }).length, 0, 'no latency_metrics on that instance');
  assert.equal(find(p, 'kong_http_requests_total', { code: '404' }).length, 0, 'requests without a route are not recorded (Kong\'s exporter)');

  // latency_metrics: Kong's buckets and label set.
  const buckets = find(p, 'kong_kong_latency_ms_bucket', { service: 'mock-service', route: 'http-route', workspace: 'default' }).map((s) => s.labels.le);
  assert.deepEqual(buckets, ['1', '2', '5', '7', '10', '15', '20', '30', '50', '75', '100', '200', '500', '750', '1000', '3000', '6000', '+Inf']);
  assert.equal(value(p, 'kong_request_latency_ms_count', { route: 'http-route' }), 3);
  assert.equal(value(p, 'kong_upstream_latency_ms_bucket', { route: 'http-route', le: '+Inf' }), 3);
  assert.equal(find(p, 'kong_upstream_latency_ms_bucket', { route: 'http-route' }).length, 14);
  // bandwidth_metrics
  const ingress = value(p, 'kong_bandwidth_bytes', { service: 'mock-service', route: 'http-route', direction: 'ingress', workspace: 'default', consumer: '' }) ?? 0;
  const egress = value(p, 'kong_bandwidth_bytes', { route: 'http-route', direction: 'egress' }) ?? 0;
  assert.ok(ingress > 3 * 40 && egress > 3 * 100, `bytes in ${ingress}, out ${egress}`);
  // upstream_health_metrics: Kong's labels with the subsystem.
  assert.equal(value(p, 'kong_upstream_target_health', { upstream: 'pool', state: 'healthchecks_off', subsystem: 'http' }), 1);
  assert.equal(p.types.get('kong_http_requests_total'), 'counter');
  assert.equal(p.types.get('kong_kong_latency_ms'), 'histogram');
  // The node families of Kong's exporter: one node id throughout, both workers' heaps by pid.
  const nodeId = (await (await request(`${g.admin}/`)).body.json() as { node_id: string }).node_id;
  assert.equal(value(p, 'kong_node_info', { node_id: nodeId, version: '3.10.0' }), 1);
  assert.equal(value(p, 'kong_datastore_reachable', {}), 1);
  assert.ok((value(p, 'kong_nginx_requests_total', { node_id: nodeId, subsystem: 'http' }) ?? 0) >= 7, 'every request, the 404 included');
  assert.ok((value(p, 'kong_nginx_connections_total', { node_id: nodeId, subsystem: 'http', state: 'accepted' }) ?? 0) >= 1);
  const heaps = await pollUntil(async () => {
    const h = find(await metrics(g.admin), 'kong_memory_workers_lua_vms_bytes', { node_id: nodeId, kong_subsystem: 'http' });
    return h.length === 2 ? h : undefined;
  }, { timeoutMs: 15_000, intervalMs: 200, what: "both workers' heaps" });
  assert.equal(new Set(heaps.map((h) => h.labels.pid)).size, 2);
  assert.ok(heaps.every((h) => h.value > 1_000_000), 'a V8 heap in use is megabytes');
});
