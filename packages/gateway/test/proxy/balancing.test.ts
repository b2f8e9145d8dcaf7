// Kong's 10-balancer/04-round-robin_spec.lua through real listeners: round-robin is exact per full wheel, weight 0
// gets nothing, no usable target answers Kong's 503.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Snapshot, Target } from '../../src/declarative/types.ts';
import { route, service, snapshot, target, upstream } from '../snapshot.fixture.ts';
import { countByPort, send, startGateway, startUpstream } from './proxy.fixture.ts';

const up = upstream({ name: 'backend.test' });
const svc = service({ host: 'backend.test', name: 'svc' });
const rt = route({ name: 'r', paths: ['/'], service: { id: svc.id } });
const config = (targets: Target[]): Snapshot => snapshot({ services: [svc], routes: [rt], upstreams: [up], targets });

type Case = {
  name: string;
  /** Weights per phase: each phase reloads the configuration, then sends `requests`. */
  phases: { weights: number[]; requests: number; expected: number[] }[];
};

const cases: Case[] = [
  { name: '1. equal weights', phases: [{ weights: [10, 10], requests: 20, expected: [10, 10] }] },
  { name: '2. add a target of weight 5', phases: [{ weights: [10, 10], requests: 20, expected: [10, 10] }, { weights: [10, 10, 5], requests: 20, expected: [8, 8, 4] }] },
  { name: '3. weight change to 15', phases: [{ weights: [10, 10], requests: 20, expected: [10, 10] }, { weights: [10, 15], requests: 20, expected: [8, 12] }] },
  { name: '4. weight 0 is disabled', phases: [{ weights: [10, 0], requests: 20, expected: [20, 0] }] },
  { name: '7. remove and re-add', phases: [{ weights: [100], requests: 20, expected: [20] }, { weights: [0], requests: 20, expected: [0] }, { weights: [100], requests: 20, expected: [20] }] },
  { name: '9. weights 10/20 over 300', phases: [{ weights: [10, 20], requests: 300, expected: [100, 200] }] },
];

for (const c of cases) {
  test(`round-robin through the proxy: ${c.name}`, async (t) => {
    const servers = await Promise.all([0, 1, 2].map(() => startUpstream(t)));
    const targetsFor = (weights: number[]) => weights.map((w, i) => target(up, `127.0.0.1:${servers[i]!.port}`, w));
    const g = await startGateway(t, config(targetsFor(c.phases[0]!.weights)));
    for (const [i, phase] of c.phases.entries()) {
      if (i > 0) g.gateway.runtime.load(config(targetsFor(phase.weights)));
      const before = servers.map((s) => s.hits);
      const counts = await countByPort(g, '/', phase.requests);
      const served = phase.weights.map((_, j) => counts.get(servers[j]!.port) ?? 0);
      assert.deepEqual(served, phase.expected, `phase ${i + 1}`);
      // The upstreams saw exactly that traffic (a weight-0 target gets no hits at all).
      assert.deepEqual(phase.weights.map((_, j) => servers[j]!.hits - before[j]!), phase.expected);
      const failed = phase.requests - phase.expected.reduce((a, b) => a + b, 0);
      assert.equal(counts.get(-503) ?? 0, failed, 'the rest are 503');
    }
  });
}

const NO_PEER = 'failure to get a peer from the ring-balancer';

test('5. all weights 0 and 6. no targets: 503 with Kong body', async (t) => {
  const s = await startUpstream(t);
  for (const targets of [[target(up, `127.0.0.1:${s.port}`, 0)], []]) {
    const g = await startGateway(t, config(targets));
    const res = await send(g, '/x');
    assert.equal(res.status, 503);
    const body = JSON.parse(res.body) as { message: string; request_id: string };
    assert.equal(body.message, NO_PEER);
    assert.match(body.request_id, /^[0-9a-f]{32}$/);
    assert.equal(res.headers['x-kong-request-id'], body.request_id);
  }
  assert.equal(s.hits, 0);
});

test('reloading an unchanged upstream keeps its balancer (and its wheel position)', async (t) => {
  const servers = await Promise.all([0, 1].map(() => startUpstream(t)));
  const targets = servers.map((s) => target(up, `127.0.0.1:${s.port}`, 10));
  const g = await startGateway(t, config(targets));
  const before = g.gateway.runtime.state.balancers.get('backend.test');
  await send(g, '/');
  g.gateway.runtime.load(config(targets));
  assert.equal(g.gateway.runtime.state.balancers.get('backend.test'), before);
  // One request went before the reload, 19 after: still 10/10 over the 20.
  const counts = await countByPort(g, '/', 19);
  const total = servers.map((s) => s.hits);
  assert.deepEqual(total, [10, 10]);
  assert.equal([...counts.values()].reduce((a, b) => a + b), 19);
});
