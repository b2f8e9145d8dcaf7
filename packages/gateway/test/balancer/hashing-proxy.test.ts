// Kong's 10-balancer/03-consistent-hashing_spec.lua, 02-least-connections_spec.lua and
// 07-latency_spec.lua through real listeners: the proxy hands the balancer the request (headers,
// cookies, path, query, regex captures, client ip) and its retries' failed addresses.
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import type { Upstream } from '../../src/declarative/types.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { refusedPort, send, startGateway, startUpstream, type StartedGateway } from '../proxy/proxy.fixture.ts';

async function hashingGateway(t: TestContext, fields: Partial<Upstream>, paths = ['/']): Promise<{ g: StartedGateway; ports: number[] }> {
  const servers = await Promise.all([startUpstream(t), startUpstream(t), startUpstream(t)]);
  const up = upstream({ name: 'hashed.test', algorithm: 'consistent-hashing', slots: 10, ...fields });
  const svc = service({ host: 'hashed.test', name: 'svc' });
  const rt = route({ name: 'r', paths, service: { id: svc.id } });
  const targets = servers.map((s) => target(up, `127.0.0.1:${s.port}`, 10));
  const g = await startGateway(t, snapshot({ services: [svc], routes: [rt], upstreams: [up], targets }));
  return { g, ports: servers.map((s) => s.port) };
}

async function portsFor(g: StartedGateway, n: number, path: (i: number) => string, headers: (i: number) => Record<string, string> = () => ({})): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await send(g, path(i), { headers: headers(i) });
    assert.equal(res.status, 200, res.body);
    out.push((JSON.parse(res.body) as { port: number }).port);
  }
  return out;
}

test('10-12. hash on a header: one value is sticky, different values spread, a missing header hashes ""', async (t) => {
  const { g } = await hashingGateway(t, { hash_on: 'header', hash_on_header: 'hashme' });
  assert.equal(new Set(await portsFor(g, 20, () => '/', () => ({ hashme: 'just a value' }))).size, 1);
  assert.equal(new Set(await portsFor(g, 20, () => '/')).size, 1, 'no header: every request to one target');
  const spread = new Set(await portsFor(g, 60, () => '/', (i) => ({ hashme: `client-${i}` })));
  assert.ok(spread.size > 1, 'different values reach different targets');
});

test('13. hash on a cookie: Set-Cookie when absent, replaying it is sticky, none when sent', async (t) => {
  const { g } = await hashingGateway(t, { hash_on: 'cookie', hash_on_cookie: 'hashme', hash_on_cookie_path: '/' });
  const first = await send(g, '/');
  assert.equal(first.status, 200);
  const setCookie = String(first.headers['set-cookie']);
  assert.match(setCookie, /^hashme=[0-9a-f-]{36}; Path=\/; Same-Site=Lax; HttpOnly$/);
  const cookie = setCookie.split(';')[0]!;
  const firstPort = (JSON.parse(first.body) as { port: number }).port;
  for (let i = 0; i < 20; i++) {
    const res = await send(g, '/', { headers: { cookie } });
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal((JSON.parse(res.body) as { port: number }).port, firstPort);
  }
});

test('14-15. query_arg and uri_capture values route consistently', async (t) => {
  const { g } = await hashingGateway(t, { hash_on: 'query_arg', hash_on_query_arg: 'hashme' });
  assert.equal(new Set(await portsFor(g, 10, () => '/?hashme=123')).size, 1);
  const byValue = await portsFor(g, 60, (i) => `/?hashme=${i}`);
  assert.ok(new Set(byValue).size > 1);
  // The same value sorted the same way: a,b,c whatever the order sent.
  const [abc] = await portsFor(g, 1, () => '/?hashme=a&hashme=b&hashme=c');
  assert.equal((await portsFor(g, 1, () => '/?hashme=c&hashme=a&hashme=b'))[0], abc);

  const cap = await hashingGateway(t, { hash_on: 'uri_capture', hash_on_uri_capture: 'id' }, ['~/(?<namespace>[^/]+)/(?<id>[0-9]+)/?']);
  const ids = await portsFor(cap.g, 30, (i) => `/ns${i}/42`);
  assert.equal(new Set(ids).size, 1, 'same id, other namespaces: one target');
  assert.ok(new Set(await portsFor(cap.g, 60, (i) => `/ns/${i}`)).size > 1);
});

test('19. least-connections retries skip the failed address', async (t) => {
  const ok = await startUpstream(t);
  const dead = await refusedPort();
  const up = upstream({ name: 'lc.test', algorithm: 'least-connections' });
  const svc = service({ host: 'lc.test', name: 'svc', retries: 1 });
  const rt = route({ name: 'r', paths: ['/'], service: { id: svc.id } });
  // The dead address is heavier, so an idle balancer picks it first; the retry must not.
  const targets = [
    target(up, `127.0.0.1:${dead}`, 50),
    target(up, `127.0.0.1:${ok.port}`, 20),
  ];
  const g = await startGateway(t, snapshot({ services: [svc], routes: [rt], upstreams: [up], targets }));
  for (let i = 0; i < 5; i++) {
    const res = await send(g, '/');
    assert.equal(res.status, 200, res.body);
  }
  assert.equal(ok.hits, 5);
});

// Kong's 10-balancer/07-latency_spec.lua through real sockets: a 100 ms and a 1000 ms target of
// equal weight, 6 clients in a closed loop for 3 s: the fast one serves more than 10× the slow.
test('21. latency: 100 ms vs 1000 ms targets, 6 clients for 3 s: fast/slow > 10', async (t) => {
  const delayed = (ms: number) => startUpstream(t, (_req, res, u) => {
    const timer = setTimeout(() => res.end(JSON.stringify({ port: u.port })), ms);
    res.on('close', () => clearTimeout(timer));
  });
  const [fast, slow] = await Promise.all([delayed(100), delayed(1000)]);
  const up = upstream({ name: 'latency.test', algorithm: 'latency' });
  const svc = service({ host: 'latency.test', name: 'svc' });
  const rt = route({ name: 'r', paths: ['/'], service: { id: svc.id } });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [rt], upstreams: [up], targets: [target(up, `127.0.0.1:${fast.port}`, 100), target(up, `127.0.0.1:${slow.port}`, 100)] }));
  const end = Date.now() + 3000;
  const client = async () => {
    while (Date.now() < end) assert.equal((await send(g, '/')).status, 200);
  };
  await Promise.all(Array.from({ length: 6 }, client));
  assert.ok(fast.hits > 10 * slow.hits, `fast ${fast.hits} slow ${slow.hits}`);
});

// Kong's 10-balancer/02-least-connections_spec.lua through real sockets: 100 ms and 200 ms targets of equal weight under a
// closed-loop load (8 concurrent clients, the fixture's connection limit, for 1.5 s): least-
// connections keeps the in-flight counts level, so the fast target serves ≈ 2× (Kong: ±1).
test('20. least-connections: 100 ms vs 200 ms targets, fast/slow ≈ 2 (±1)', async (t) => {
  const delayed = (ms: number) => startUpstream(t, (_req, res, u) => {
    const timer = setTimeout(() => res.end(JSON.stringify({ port: u.port })), ms);
    res.on('close', () => clearTimeout(timer));
  });
  const [fast, slow] = await Promise.all([delayed(100), delayed(200)]);
  const up = upstream({ name: 'lc2.test', algorithm: 'least-connections' });
  const svc = service({ host: 'lc2.test', name: 'svc' });
  const rt = route({ name: 'r', paths: ['/'], service: { id: svc.id } });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [rt], upstreams: [up], targets: [target(up, `127.0.0.1:${fast.port}`, 10), target(up, `127.0.0.1:${slow.port}`, 10)] }));
  const end = Date.now() + 1500;
  const client = async () => {
    while (Date.now() < end) assert.equal((await send(g, '/')).status, 200);
  };
  await Promise.all(Array.from({ length: 8 }, client));
  const ratio = fast.hits / slow.hits;
  // Kong accepts 1-3; round-robin would give ≈ 1 here, so the lower bound is raised to 1.4 (event
  // loop lag on a loaded machine adds the same delay to both targets and pulls the ratio below 2).
  assert.ok(ratio >= 1.4 && ratio <= 3, `fast ${fast.hits} slow ${slow.hits}`);
});
