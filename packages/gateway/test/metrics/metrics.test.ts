// GET /metrics on the admin listener of a real `signet-gateway start` process (one process and
// two workers), scraped and parsed; GET /status; the JSON access log and the request id
// forwarded upstream.
import assert from 'node:assert/strict';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { request } from 'undici';
import { refusedPort, startUpstream } from '../proxy/proxy.fixture.ts';
import { find, parsePrometheusText, type Parsed } from './prometheus-text.fixture.ts';


const kongYml = (okPort: number, deadPort: number) => `_format_version: "3.0"
services:
  - name: echo
    host: echo.upstream
    retries: 1
    routes:
      - name: api
        paths: ["/api"]
upstreams:
  - name: echo.upstream
    healthchecks:
      passive:
        unhealthy:
          tcp_failures: 1
    targets:
      - target: 127.0.0.1:${okPort}
        weight: 100
      - target: 127.0.0.1:${deadPort}
        weight: 100
`;

async function startGateway(t: TestContext, workers: number, okPort: number, deadPort: number) {
  return startGatewayProcess(t, kongYml(okPort, deadPort), { workers, env: { KONG_PROXY_ACCESS_LOG: 'stdout' } });
}

async function scrape(admin: string): Promise<Parsed> {
  const res = await request(`${admin}/metrics`);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return parsePrometheusText(await res.body.text());
}

const value = (p: Parsed, name: string, labels: Record<string, string>) => find(p, name, labels).reduce((n, s) => n + s.value, 0);

for (const workers of [1, 2]) {
  test(`GET /metrics with --workers ${workers}: requests, latency histograms, target health, connections; access log`, async (t) => {
    const ok = await startUpstream(t);
    const dead = await refusedPort();
    const g = await startGateway(t, workers, ok.port, dead);

    // The refused target fails once (retried onto the live one, so the client sees 200) and
    // is ejected by the passive check; then 10 more requests, and 3 that match no route.
    await pollUntil(async () => {
      const res = await request(`${g.proxy}/api/x`, { headers: { connection: 'close' } });
      await res.body.text();
      assert.equal(res.statusCode, 200);
      const health = await request(`${g.admin}/upstreams/echo.upstream/health`);
      const view = (await health.body.json()) as { data: { target: string; health: string }[] };
      return view.data.find((d) => d.target === `127.0.0.1:${dead}`)?.health === 'UNHEALTHY' ? true : undefined;
    }, { timeoutMs: 20_000, intervalMs: 10, what: 'the refused target to be ejected' });
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const res = await request(`${g.proxy}/api/ok`, { headers: { connection: 'close' } });
      const body = JSON.parse(await res.body.text()) as { headers: Record<string, string> };
      assert.equal(res.statusCode, 200);
      const id = String(res.headers['x-kong-request-id']);
      assert.match(id, /^[0-9a-f]{32}$/);
      assert.equal(body.headers['x-kong-request-id'], id, 'the request id is forwarded upstream');
      assert.match(String(res.headers['x-kong-upstream-latency']), /^\d+$/);
      assert.match(String(res.headers['x-kong-proxy-latency']), /^\d+$/);
      ids.push(id);
    }
    for (let i = 0; i < 3; i++) await (await request(`${g.proxy}/nowhere`)).body.text();

    // Workers push every second: poll until every request is counted.
    const p = await pollUntil(async () => {
      const m = await scrape(g.admin);
      const ok200 = value(m, 'kong_http_requests_total', { service: 'echo', route: 'api', code: '200', source: 'service' });
      const nf = value(m, 'kong_http_requests_total', { service: '', route: '', code: '404', source: 'kong' });
      return ok200 >= 11 && nf === 3 ? m : undefined;
    }, { timeoutMs: 15_000, intervalMs: 200, what: 'the requests to show in /metrics' });

    assert.equal(p.types.get('kong_http_requests_total'), 'counter');
    assert.equal(p.types.get('kong_upstream_latency_ms'), 'histogram');
    const okCount = value(p, 'kong_http_requests_total', { service: 'echo', route: 'api', code: '200' });
    // Histograms: +Inf bucket = count = 200s served; buckets are cumulative.
    const buckets = find(p, 'kong_upstream_latency_ms_bucket', { service: 'echo', route: 'api' });
    assert.equal(buckets.at(-1)!.labels.le, '+Inf');
    assert.equal(buckets.at(-1)!.value, okCount);
    for (let i = 1; i < buckets.length; i++) assert.ok(buckets[i]!.value >= buckets[i - 1]!.value);
    assert.equal(value(p, 'kong_upstream_latency_ms_count', { service: 'echo' }), okCount);
    assert.equal(value(p, 'kong_kong_latency_ms_count', { service: 'echo' }), okCount);
    assert.equal(value(p, 'kong_request_latency_ms_count', { service: 'echo' }), okCount);
    // Target health: the live target healthy, the refused one unhealthy (passive tcp failure).
    assert.equal(value(p, 'kong_upstream_target_health', { upstream: 'echo.upstream', address: `127.0.0.1:${ok.port}`, state: 'healthy' }), 1);
    assert.equal(value(p, 'kong_upstream_target_health', { upstream: 'echo.upstream', address: `127.0.0.1:${dead}`, state: 'unhealthy' }), 1);
    assert.equal(value(p, 'kong_upstream_target_health', { upstream: 'echo.upstream', address: `127.0.0.1:${dead}`, state: 'healthy' }), 0);
    assert.ok(value(p, 'kong_nginx_connections_total', { state: 'accepted' }) >= okCount + 3);
    assert.ok(value(p, 'kong_nginx_connections_total', { state: 'active' }) >= 0);

    // GET /status (nginx stub_status in Kong's shape) counts the proxy's requests and client
    // connections too, not only the admin listener's: 5 more proxied requests show up exactly.
    let adminCalls = 0;
    const readStatus = async () => {
      adminCalls++;
      const res = await request(`${g.admin}/status`);
      return ((await res.body.json()) as { server: { total_requests: number; connections_accepted: number; connections_handled: number } }).server;
    };
    const before = await readStatus();
    adminCalls = 0;
    for (let i = 0; i < 5; i++) await (await request(`${g.proxy}/api/again`, { headers: { connection: 'close' } })).body.text();
    const after = await pollUntil(async () => {
      const s = await readStatus();
      return s.total_requests === before.total_requests + 5 + adminCalls ? s : undefined;
    }, { timeoutMs: 15_000, intervalMs: 200, what: '/status to count the 5 proxied requests' });
    assert.ok(after.connections_accepted >= before.connections_accepted + 5, 'each proxied connection is counted');
    assert.equal(after.connections_handled, after.connections_accepted);

    // One JSON access-log line per request, with the id the client and the upstream saw.
    // The log is the child's output, written after each answer: polled, not read once.
    const accessLines = () => g.proc.output().split('\n').filter((l) => l.includes('"msg":"access"')).map((l) => JSON.parse(l) as Record<string, unknown>);
    const lines = await pollUntil(() => {
      const seen = accessLines();
      return ids.every((id) => seen.some((l) => l.request_id === id)) ? seen : undefined;
    }, { timeoutMs: 15_000, intervalMs: 50, what: 'an access log line for each request' });
    for (const id of ids) {
      const line = lines.find((l) => l.request_id === id);
      assert.ok(line, `access log for ${id}`);
      assert.equal(line.status, 200);
      assert.equal(line.service, 'echo');
      assert.equal(line.uri, '/api/ok');
      assert.equal(line.upstream_addr, `127.0.0.1:${ok.port}`);
    }
  });
}
