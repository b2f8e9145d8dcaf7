// Retries follow nginx `proxy_next_upstream error timeout` (kong/init.lua Kong.balancer): connect errors and
// timeouts move to the next peer, HTTP 5xx never does; timeouts end in 504, refusals in 502.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from '../../src/balancer/index.ts';
import type { Service, Target, Upstream } from '../../src/declarative/types.ts';
import type { AttemptOutcome } from '../../src/proxy/proxy-hooks.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { refusedPort, send, startGateway, startUpstream } from './proxy.fixture.ts';

type Report = { address: string; outcome: AttemptOutcome; retried: boolean };

function setup(up: Upstream, targets: Target[], fields: Partial<Service> = {}) {
  const svc = service({ host: up.name, ...fields });
  return snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })], upstreams: [up], targets });
}

function recorder() {
  const reports: Report[] = [];
  return {
    reports,
    hooks: {
      onAttempt: (_u: Upstream, a: Address, outcome: AttemptOutcome, retried: boolean) => {
        reports.push({ address: a.key, outcome, retried });
      },
    },
  };
}

test('a refusing target is skipped: every request succeeds on the other', async (t) => {
  const good = await startUpstream(t);
  const dead = await refusedPort();
  const up = upstream({ name: 'retry.test' });
  const rec = recorder();
  // random 0 shuffles the wheel to [good, dead] with the pointer before `dead`.
  const g = await startGateway(t, setup(up, [target(up, `127.0.0.1:${dead}`, 10), target(up, `127.0.0.1:${good.port}`, 10)]), { hooks: rec.hooks, random: () => 0 });
  for (let i = 0; i < 10; i++) {
    const res = await send(g, '/');
    assert.equal(res.status, 200);
  }
  assert.equal(good.hits, 10);
  // A retry takes the next wheel slot (kong/runloop/balancer/round_robin.lua), so every request starts on the dead
  // target and moves on to the good one.
  const failures = rec.reports.filter((r) => r.outcome === 'tcp_failure');
  assert.equal(failures.length, 10);
  assert.ok(failures.every((r) => r.address === `127.0.0.1:${dead}` && r.retried));
  assert.equal(rec.reports.filter((r) => r.outcome === 200).length, 10);
});

test('HTTP 5xx is never retried: the client gets the upstream 500', async (t) => {
  const failing = await startUpstream(t, (_req, res) => {
    res.writeHead(500, { 'Content-Type': 'text/plain' });
    res.end('boom');
  });
  const up = upstream({ name: 'five.test' });
  const rec = recorder();
  const g = await startGateway(t, setup(up, [target(up, `127.0.0.1:${failing.port}`)]), { hooks: rec.hooks });
  const res = await send(g, '/');
  assert.equal(res.status, 500);
  assert.equal(res.body, 'boom');
  assert.equal(failing.hits, 1);
  assert.deepEqual(rec.reports, [{ address: `127.0.0.1:${failing.port}`, outcome: 500, retried: false }]);
});

test('all attempts refused: 1 + retries attempts, then 502 with Kong body', async (t) => {
  const dead = await refusedPort();
  const up = upstream({ name: 'dead.test' });
  const rec = recorder();
  const g = await startGateway(t, setup(up, [target(up, `127.0.0.1:${dead}`)], { retries: 2 }), { hooks: rec.hooks });
  const res = await send(g, '/', { headers: { accept: 'application/json' } });
  assert.equal(res.status, 502);
  assert.equal((JSON.parse(res.body) as { message: string }).message, 'An invalid response was received from the upstream server');
  assert.deepEqual(rec.reports.map((r) => [r.outcome, r.retried]), [['tcp_failure', true], ['tcp_failure', true], ['tcp_failure', false]]);
});

test('read timeout: 504 when no retries are left (Kong 01-healthchecks_spec)', async (t) => {
  const silent = await startUpstream(t, () => {
    // Never answers; the gateway's read_timeout fires.
  });
  const up = upstream({ name: 'slow.test' });
  const rec = recorder();
  const g = await startGateway(t, setup(up, [target(up, `127.0.0.1:${silent.port}`)], { retries: 0, read_timeout: 150 }), { hooks: rec.hooks });
  const res = await send(g, '/', { headers: { accept: 'text/plain' } });
  assert.equal(res.status, 504);
  assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8');
  assert.match(res.body, /^The upstream server is timing out\nrequest_id: [0-9a-f]{32}\n$/);
  assert.deepEqual(rec.reports.map((r) => [r.outcome, r.retried]), [['timeout', false]]);
});

test('read timeout is retried onto the next target (Kong 01-healthchecks_spec)', async (t) => {
  const silent = await startUpstream(t, () => {});
  const good = await startUpstream(t);
  const up = upstream({ name: 'mixed.test' });
  const rec = recorder();
  const g = await startGateway(t, setup(up, [target(up, `127.0.0.1:${silent.port}`, 10), target(up, `127.0.0.1:${good.port}`, 10)], { read_timeout: 1500 }), { hooks: rec.hooks, random: () => 0 });
  for (let i = 0; i < 3; i++) assert.equal((await send(g, '/')).status, 200);
  // Without passive checks nothing ejects the slow target: each request tries it first.
  assert.equal(good.hits, 3);
  assert.equal(silent.hits, 3);
  assert.deepEqual(rec.reports.map((r) => [r.outcome, r.retried]), [['timeout', true], [200, false], ['timeout', true], [200, false], ['timeout', true], [200, false]]);
});

test('a request body that has started streaming is not retried', async (t) => {
  const silent = await startUpstream(t, (req) => req.resume());
  const good = await startUpstream(t);
  const up = upstream({ name: 'post.test' });
  const g = await startGateway(t, setup(up, [target(up, `127.0.0.1:${silent.port}`, 10), target(up, `127.0.0.1:${good.port}`, 10)], { read_timeout: 1500 }), { random: () => 0 });
  const statuses: number[] = [];
  for (let i = 0; i < 2; i++) statuses.push((await send(g, '/', { method: 'POST', body: 'payload' })).status);
  assert.deepEqual(statuses.sort(), [200, 504]);
  assert.equal(good.hits, 1);
});

test('direct service (host is not an upstream): proxied to host:port; refused → 502', async (t) => {
  const s = await startUpstream(t);
  const svc = service({ host: '127.0.0.1', port: s.port });
  const dead = service({ host: '127.0.0.1', port: await refusedPort(), retries: 1 });
  const g = await startGateway(t, snapshot({
    services: [svc, dead],
    routes: [route({ paths: ['/ok'], service: { id: svc.id } }), route({ paths: ['/dead'], service: { id: dead.id } })],
  }));
  const res = await send(g, '/ok/x');
  assert.equal(res.status, 200);
  assert.equal((JSON.parse(res.body) as { url: string }).url, '/x');
  assert.equal((await send(g, '/dead')).status, 502);
});

test('a service host that does not resolve: 503 name resolution failed, not retried', async (t) => {
  const svc = service({ host: 'nothing.invalid', port: 80 });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  const res = await send(g, '/');
  assert.equal(res.status, 503);
  assert.equal((JSON.parse(res.body) as { message: string }).message, 'name resolution failed');
});
