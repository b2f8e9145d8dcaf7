// rate-limiting with policy redis against a real redis-server: two gateway nodes (separate
// processes, two workers each) share one limit through Redis under Kong's key layout
// (kong/plugins/rate-limiting/policies/init.lua); then Redis is killed mid-run: with
// fault_tolerant the traffic passes without rate-limit headers and the failure is logged,
// without it the request is Kong's 500; once Redis is back, counting resumes.
// response-ratelimiting with policy redis shares its counters the same way. Windows are a year
// long, so none ends during the test.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { Redis } from 'ioredis';
import { request } from 'undici';
import { startGatewayProcess, type GatewayProcess } from '../health/gateway-process.ts';
import { startRedisServer } from '../health/redis-server.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';

const yml = (upstream: string, redisPort: number): string => {
  const redis = `policy: redis, redis: { host: 127.0.0.1, port: ${redisPort}, timeout: 1000 }`;
  return `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: shared, hosts: [rl1.test], plugins: [{ name: rate-limiting, config: { year: 6, limit_by: ip, ${redis} } }] }
      - { name: burst, hosts: [rl2.test], plugins: [{ name: rate-limiting, config: { month: 10, year: 1000, limit_by: ip, ${redis} } }] }
      - { name: tolerant, hosts: [rl3.test], plugins: [{ name: rate-limiting, config: { year: 1000, limit_by: ip, ${redis} } }] }
      - { name: strict, hosts: [rl4.test], plugins: [{ name: rate-limiting, config: { year: 1000, limit_by: ip, fault_tolerant: false, ${redis} } }] }
      - { name: from-env, hosts: [rl5.test], plugins: [{ name: rate-limiting, config: { year: 2, limit_by: ip, policy: redis } }] }
      - { name: reported, hosts: [rr.test], plugins: [{ name: response-ratelimiting, config: { limits: { video: { year: 3 } }, ${redis} } }] }
`;
};

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

async function get(g: GatewayProcess, host: string, report?: string): Promise<Answer> {
  const res = await request(g.proxy + '/', { headers: { host, connection: 'close', ...(report === undefined ? {} : { 'x-report': report }) } });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

async function idOf(g: GatewayProcess, path: string): Promise<string> {
  const res = await request(g.admin + path);
  return ((await res.body.json()) as { id: string }).id;
}

test('rate-limiting redis: two nodes share one limit; a dead Redis passes or fails as fault_tolerant says', async (t) => {
  const redis = await startRedisServer();
  let redisNow = redis;
  t.after(() => redisNow.stop());
  // The upstream reports what the request's X-Report says it used (response-ratelimiting).
  const upstream = await startUpstream(t, (req, res) => {
    const report = req.headers['x-report'];
    res.writeHead(200, typeof report === 'string' ? { 'X-Kong-Limit': report } : {});
    res.end('ok');
  });
  const config = yml(`http://127.0.0.1:${upstream.port}`, redis.port);
  // REDIS_URL: the Redis of the plugin that names none (route from-env).
  const env = { REDIS_URL: redis.url };
  const [a, b] = await Promise.all([startGatewayProcess(t, config, { workers: 2, env }), startGatewayProcess(t, config, { workers: 2, env })]);
  const raw = new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  t.after(() => raw.disconnect());

  // Alternating nodes (and, on fresh connections, workers): one count of 6 for all four workers.
  const answers: Answer[] = [];
  for (let i = 0; i < 8; i++) answers.push(await get(i % 2 === 0 ? a : b, 'rl1.test'));
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200, 200, 429, 429]);
  assert.deepEqual(answers.slice(0, 6).map((r) => r.headers['x-ratelimit-remaining-year']), ['5', '4', '3', '2', '1', '0']);
  assert.deepEqual(answers.slice(0, 6).map((r) => r.headers['ratelimit-remaining']), ['5', '4', '3', '2', '1', '0']);
  for (const r of answers.slice(6)) {
    assert.deepEqual((JSON.parse(r.body) as { message: string }).message, 'API rate limit exceeded');
    assert.equal(r.headers['x-ratelimit-remaining-year'], '0');
    assert.equal(r.headers['retry-after'], r.headers['ratelimit-reset']);
  }

  // Kong's key: ratelimit:<route id>:<service id>:<identifier>:<window start ms>:<period>, the
  // plugin's own route and service (this one is set on a route only: the empty UUID for the
  // service). As in Kong's realtime redis policy, refused requests count too (8 requests, 8).
  const routeId = await idOf(a, '/routes/shared');
  const yearStart = Date.UTC(new Date().getUTCFullYear(), 0, 1);
  const key = `ratelimit:${routeId}:00000000-0000-0000-0000-000000000000:127.0.0.1:${yearStart}:year`;
  assert.deepEqual(await raw.keys(`ratelimit:${routeId}:*`), [key]);
  assert.equal(await raw.get(key), '8');
  const ttl = await raw.ttl(key);
  assert.ok(ttl > 31_535_000 && ttl <= 31_536_000, `expires a year after its first request (ttl ${ttl})`);

  // A redis policy naming no host counts in REDIS_URL's Redis, shared by both nodes.
  assert.deepEqual([(await get(a, 'rl5.test')).status, (await get(b, 'rl5.test')).status, (await get(a, 'rl5.test')).status], [200, 200, 429]);
  const fromEnvId = await idOf(a, '/routes/from-env');
  assert.equal(await raw.get(`ratelimit:${fromEnvId}:00000000-0000-0000-0000-000000000000:127.0.0.1:${yearStart}:year`), '3');

  // 40 concurrent requests over both nodes against a month limit of 10: exactly 10 pass.
  const burst = await Promise.all(Array.from({ length: 40 }, (_, i) => get(i % 2 === 0 ? a : b, 'rl2.test')));
  assert.equal(burst.filter((r) => r.status === 200).length, 10);
  assert.equal(burst.filter((r) => r.status === 429).length, 30);

  // response-ratelimiting: both nodes read and add in Redis, under Kong's key layout.
  for (const g of [a, b, a]) assert.equal((await get(g, 'rr.test', 'video=1')).status, 200);
  const reportedId = await idOf(a, '/routes/reported');
  const reportedKey = `response-ratelimit:${reportedId}:00000000-0000-0000-0000-000000000000:127.0.0.1:${yearStart}:video:year`;
  await pollUntil(async () => (await raw.get(reportedKey)) === '3', { what: 'three reports counted in Redis', timeoutMs: 10_000 });
  for (const g of [b, a]) assert.equal((await get(g, 'rr.test')).headers['x-ratelimit-remaining-video-year'], '0');
  const over = await get(b, 'rr.test', 'video=1');
  assert.equal(over.status, 429);
  assert.equal(over.body, '');

  // Redis dies mid-run.
  assert.equal((await get(a, 'rl3.test')).headers['x-ratelimit-remaining-year'], '999');
  assert.equal((await get(b, 'rl4.test')).headers['x-ratelimit-remaining-year'], '999');
  await redis.kill();
  for (const g of [a, b, a, b]) {
    // fault_tolerant (the default): proxied, without rate-limit headers.
    const passed = await get(g, 'rl3.test');
    assert.equal(passed.status, 200, passed.body);
    assert.deepEqual(Object.keys(passed.headers).filter((h) => /ratelimit|retry-after/i.test(h)), []);
    // fault_tolerant false: Kong's 500.
    const failed = await get(g, 'rl4.test');
    assert.equal(failed.status, 500);
    assert.equal((JSON.parse(failed.body) as { message: string }).message, 'An unexpected error occurred');
  }
  for (const g of [a, b]) assert.match(g.proc.output(), /"plugin":"rate-limiting".*"msg":"failed to get usage"/);
  // response-ratelimiting is fault tolerant too: proxied, no usage headers, the report left as is (Kong).
  const unread = await get(a, 'rr.test', 'video=1');
  assert.equal(unread.status, 200);
  assert.equal(unread.headers['x-ratelimit-remaining-video-year'], undefined);
  assert.equal(unread.headers['x-kong-limit'], 'video=1');

  // Redis is back (empty, on the same port): each node reconnects and counts again.
  redisNow = await startRedisServer(redis.port);
  for (const g of [a, b]) {
    await pollUntil(async () => (await get(g, 'rl4.test')).status === 200, { what: 'the node to reach Redis again', timeoutMs: 20_000 });
  }
  // Either worker of a node may answer, and each reconnects on its own: a request that finds no
  // Redis yet passes uncounted and without headers, so the first counted one must still say 999.
  const again = await pollUntil(async () => {
    const r = await get(a, 'rl3.test');
    return r.headers['x-ratelimit-remaining-year'] !== undefined ? r : undefined;
  }, { what: 'a counted request on the fresh Redis', timeoutMs: 20_000 });
  assert.equal(again.status, 200);
  assert.equal(again.headers['x-ratelimit-remaining-year'], '999');
});

// Clients of a Redis other than the test's own connection (CLIENT LIST counts it too).
async function gatewayClients(raw: Redis): Promise<number> {
  const list = (await raw.client('LIST')) as string;
  return list.trim().split('\n').length - 1;
}

test('rate-limiting redis: a reload that drops or re-points the plugin closes its Redis connection', async (t) => {
  const [first, second] = [await startRedisServer(), await startRedisServer()];
  t.after(() => Promise.all([first.stop(), second.stop()]));
  const upstream = await startUpstream(t, (_req, res) => res.end('ok'));
  const service = `_format_version: "3.0"\nservices:\n  - name: echo\n    url: http://127.0.0.1:${upstream.port}\n    routes:\n`;
  const limited = (port: number): string => `${service}      - { name: r, hosts: [rl.test], plugins: [{ name: rate-limiting, config: { year: 100, policy: redis, redis: { host: 127.0.0.1, port: ${port} } } }] }\n`;
  const g = await startGatewayProcess(t, limited(first.port));
  const rawFirst = new Redis(first.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  const rawSecond = new Redis(second.url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
  t.after(() => { rawFirst.disconnect(); rawSecond.disconnect(); });
  const reload = async (yml: string): Promise<void> => {
    const res = await request(g.admin + '/config', { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: yml });
    assert.equal(res.statusCode, 201, await res.body.text());
  };

  assert.equal((await get(g, 'rl.test')).headers['x-ratelimit-remaining-year'], '99');
  assert.equal(await gatewayClients(rawFirst), 1);
  // Pointed at the second Redis: the first one's connection goes, the second one's comes.
  await reload(limited(second.port));
  assert.equal((await get(g, 'rl.test')).headers['x-ratelimit-remaining-year'], '99');
  await pollUntil(async () => (await gatewayClients(rawFirst)) === 0, { what: 'the first Redis connection closed', timeoutMs: 10_000 });
  assert.equal(await gatewayClients(rawSecond), 1);
  // The plugin removed: no connection is left open.
  await reload(`${service}      - { name: r, hosts: [rl.test] }\n`);
  assert.equal((await get(g, 'rl.test')).status, 200);
  await pollUntil(async () => (await gatewayClients(rawSecond)) === 0, { what: 'the second Redis connection closed', timeoutMs: 10_000 });
});
