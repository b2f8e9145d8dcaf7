// Active health checks end to end: LocalHealth with real probes and real (short) intervals
// against upstreams on 127.0.0.1:0 switched to fail, hang or refuse (Kong's 01-healthchecks_spec.lua, 08-targets_routes_spec.lua, healthcheck t/09).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { LocalHealth } from '../../src/health/local-health.ts';
import { healthchecks, snapshot, target, upstream } from './health.fixture.ts';
import { SwitchableUpstream } from './switchable-upstream.ts';
import type { Healthchecks } from '../../src/declarative/types.ts';

function start(t: { after: (fn: () => Promise<void>) => void }, hc: Healthchecks, servers: readonly SwitchableUpstream[]) {
  const health = new LocalHealth();
  const up = upstream('svc', hc);
  health.load(snapshot([up], servers.map((s) => target(up, s.target))));
  t.after(() => health.close());
  const transitions: string[] = [];
  health.onAvailabilityChange((_u, key, isUp) => transitions.push(`${key} ${isUp ? 'up' : 'down'}`));
  return { health, transitions, isUp: (s: SwitchableUpstream) => health.isAddressHealthy('svc', s.target) };
}

async function servers(t: { after: (fn: () => Promise<void>) => void }, n: number): Promise<SwitchableUpstream[]> {
  const list: SwitchableUpstream[] = [];
  for (let i = 0; i < n; i++) list.push(await SwitchableUpstream.start());
  t.after(async () => {
    for (const s of list) await s.close();
  });
  return list;
}

for (const n of [1, 3]) {
  test(`Kong 01-healthchecks_spec: active http_failures ${n} ejects after exactly ${n} failing probes`, async (t) => {
    const [s1, s2] = await servers(t, 2);
    // unhealthy.interval 0: once down, nobody probes it again, so the failing hits stay at N.
    const hc = healthchecks({
      active: { http_path: '/status', healthy: { interval: 0.05, successes: 1 }, unhealthy: { interval: 0, http_failures: n } },
    });
    const { isUp, transitions } = start(t, hc, [s1!, s2!]);
    await pollUntil(() => s2!.hitsOn('/status') >= 2, { what: 'probes on server 2', timeoutMs: 5000 });
    assert.equal(isUp(s2!), true);
    s2!.mode = 'fail';
    await pollUntil(() => !isUp(s2!), { what: 'server 2 ejected', timeoutMs: 5000 });
    assert.equal(s2!.answered(500), n);
    // Five more rounds on server 1: server 2, down and unprobed, got no further request.
    const s1Hits = s1!.hitsOn('/status');
    await pollUntil(() => s1!.hitsOn('/status') >= s1Hits + 5, { what: 'five more rounds', timeoutMs: 5000 });
    assert.equal(s2!.answered(500), n);
    assert.equal(isUp(s1!), true);
    assert.deepEqual(transitions, [`${s2!.target} down`]);
  });
}

test('Kong 01-healthchecks_spec: automatic recovery needs unhealthy.interval and healthy.successes', async (t) => {
  const [s1] = await servers(t, 1);
  const hc = healthchecks({
    active: { healthy: { interval: 0.05, successes: 3 }, unhealthy: { interval: 0.05, http_failures: 3 } },
  });
  const { isUp, health, transitions } = start(t, hc, [s1!]);
  s1!.mode = 'fail';
  await pollUntil(() => !isUp(s1!), { what: 'down', timeoutMs: 5000 });
  assert.equal(health.addressHealth('svc', s1!.target), 'unhealthy');
  s1!.mode = 'ok';
  await pollUntil(() => isUp(s1!), { what: 'back up', timeoutMs: 5000 });
  assert.equal(health.addressHealth('svc', s1!.target), 'healthy');
  assert.deepEqual(transitions, [`${s1!.target} down`, `${s1!.target} up`]);
});

test('Kong 01-healthchecks_spec: an upstream failing from the start is detected before any traffic', async (t) => {
  const [s1, s2] = await servers(t, 2);
  s2!.mode = 'fail';
  const hc = healthchecks({
    active: { healthy: { interval: 0.05, successes: 1 }, unhealthy: { interval: 0.05, tcp_failures: 2, http_failures: 2 } },
  });
  const { isUp } = start(t, hc, [s1!, s2!]);
  await pollUntil(() => !isUp(s2!), { what: 'server 2 down', timeoutMs: 5000 });
  assert.equal(isUp(s1!), true);
});

test('a hanging upstream is ejected by timeouts; a refusing one by tcp failures (§6.40, §6.43)', async (t) => {
  const [hang, refuse] = await servers(t, 2);
  hang!.mode = 'hang';
  await refuse!.refuse();
  const hc = healthchecks({
    active: { timeout: 0.1, healthy: { interval: 0.05 }, unhealthy: { interval: 0, timeouts: 2, tcp_failures: 1 } },
  });
  const { isUp, health } = start(t, hc, [hang!, refuse!]);
  await pollUntil(() => !isUp(hang!) && !isUp(refuse!), { what: 'both down', timeoutMs: 5000 });
  assert.equal(health.registry.checker('svc')!.state(hang!.target)!.counters.timeout, 2);
  assert.equal(health.registry.checker('svc')!.state(refuse!.target)!.counters.tcp, 1);
});

test('both intervals 0: no probe ever reaches the upstream', async (t) => {
  const [s1] = await servers(t, 1);
  const hc = healthchecks({ active: { healthy: { interval: 0 }, unhealthy: { interval: 0 } }, passive: { unhealthy: { http_failures: 1 } } });
  const { health } = start(t, hc, [s1!]);
  assert.equal(health.checksOn('svc'), true);
  // Give a would-be 50 ms loop ten rounds' worth of time, bounded by a deadline, then check.
  await assert.rejects(pollUntil(() => s1!.hitsOn('/') > 0, { timeoutMs: 500 }));
});
