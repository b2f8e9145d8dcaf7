import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActiveProber, type ProbeRequest } from './active-prober.ts';
import { HealthChecker, type HealthOutcome } from './health-checker.ts';
import { FakeTimers } from './fake-timers.ts';
import { healthchecks, upstream } from '../../test/health/health.fixture.ts';
import type { Healthchecks } from '../declarative/types.ts';

type Call = { readonly key: string; readonly at: number; readonly settle: (o: HealthOutcome) => void };

function setup(hc: Healthchecks, keys: readonly string[]) {
  const timers = new FakeTimers();
  const checker = new HealthChecker(upstream('svc', hc), () => undefined);
  for (const key of keys) {
    const [host = '', port = '0'] = key.split(':');
    checker.add({ key, host, port: Number(port), hostname: host });
  }
  const calls: Call[] = [];
  const requests: ProbeRequest[] = [];
  let active = 0;
  let maxActive = 0;
  const probe = (req: ProbeRequest): Promise<HealthOutcome> => {
    requests.push(req);
    active++;
    maxActive = Math.max(maxActive, active);
    return new Promise((resolve) => {
      const settle = (o: HealthOutcome): void => {
        active--;
        resolve(o);
      };
      calls.push({ key: req.address.key, at: timers.now(), settle });
      req.signal.addEventListener('abort', () => settle('tcp_failure'), { once: true });
    });
  };
  const prober = new ActiveProber(checker, { probe, timers });
  return { timers, checker, prober, calls, requests, maxActive: () => maxActive };
}

const hc = (healthyInterval: number, unhealthyInterval: number, extra: Parameters<typeof healthchecks>[0] = {}) =>
  healthchecks({
    ...extra,
    active: {
      ...extra.active,
      healthy: { interval: healthyInterval, successes: 1, ...extra.active?.healthy },
      unhealthy: { interval: unhealthyInterval, http_failures: 1, ...extra.active?.unhealthy },
    },
  });

test('the first probe comes one interval after start, then every interval', async () => {
  const { timers, prober, calls } = setup(hc(2, 0), ['10.0.0.1:80']);
  prober.start();
  await timers.advance(1999);
  assert.equal(calls.length, 0);
  await timers.advance(1);
  assert.deepEqual(calls.map((c) => c.at), [2000]);
  calls[0]!.settle(200);
  await timers.advance(2000);
  assert.deepEqual(calls.map((c) => c.at), [2000, 4000]);
  calls[1]!.settle(200);
  await prober.stop();
});

test('both intervals 0: nothing is ever armed', async () => {
  const { timers, prober, calls } = setup(hc(0, 0, { passive: { unhealthy: { http_failures: 1 } } }), ['10.0.0.1:80']);
  prober.start();
  assert.equal(timers.pending, 0);
  await timers.advance(60_000);
  assert.equal(calls.length, 0);
  await prober.stop();
});

test('healthy interval 0 pauses probing of up targets; unhealthy interval probes down ones only', async () => {
  const { timers, checker, prober, calls } = setup(hc(0, 1), ['10.0.0.1:80', '10.0.0.2:80']);
  checker.setStatus('10.0.0.2:80', false);
  prober.start();
  await timers.advance(3000);
  assert.deepEqual(calls.map((c) => c.key), ['10.0.0.2:80']);
  calls[0]!.settle(200); // successes 1: back up, so no longer probed by either loop
  await timers.advance(5000);
  assert.equal(checker.isUp('10.0.0.2:80'), true);
  assert.equal(calls.length, 1);
  await prober.stop();
});

test('a failing probe moves the target to the unhealthy loop and a success brings it back', async () => {
  const { timers, checker, prober, calls } = setup(hc(1, 3), ['10.0.0.1:80']);
  prober.start();
  await timers.advance(1000);
  calls[0]!.settle(500);
  await timers.advance(0);
  assert.equal(checker.isUp('10.0.0.1:80'), false);
  await timers.advance(2000); // t=3000: the unhealthy loop's first round
  assert.deepEqual(calls.map((c) => c.at), [1000, 3000]);
  calls[1]!.settle(200);
  await timers.advance(0);
  assert.equal(checker.isUp('10.0.0.1:80'), true);
  await prober.stop();
});

test('a target is never probed twice at once: a slow round delays the next one', async () => {
  const { timers, prober, calls } = setup(hc(1, 0), ['10.0.0.1:80']);
  prober.start();
  await timers.advance(1000);
  assert.equal(calls.length, 1);
  await timers.advance(3500); // probe still hanging: rounds due at 2000, 3000, 4000 wait
  assert.equal(calls.length, 1);
  calls[0]!.settle(200);
  await timers.advance(0); // the overdue round starts as soon as the slow one ends
  assert.equal(calls.length, 2);
  assert.equal(calls[1]!.at, 4500);
  calls[1]!.settle(200);
  await prober.stop();
});

test('concurrency: targets dealt into that many sequential packages', async () => {
  const keys = ['10.0.0.1:80', '10.0.0.2:80', '10.0.0.3:80', '10.0.0.4:80', '10.0.0.5:80'];
  const { timers, prober, calls, maxActive } = setup(hc(1, 0, { active: { concurrency: 2 } }), keys);
  prober.start();
  await timers.advance(1000);
  // packages [1,3,5] and [2,4]: two probes at a time.
  assert.deepEqual(calls.map((c) => c.key), ['10.0.0.1:80', '10.0.0.2:80']);
  for (let settled = 0; settled < calls.length; ) {
    for (const c of calls.slice(settled)) c.settle(200);
    settled = calls.length;
    await timers.advance(0);
  }
  assert.equal(maxActive(), 2);
  assert.equal(calls.length, 5);
  await prober.stop();
});

test('the probe gets the Host header Kong sends: host_header, else the target host name', async () => {
  const { timers, prober, calls, requests } = setup(hc(1, 0), ['example.com:8080']);
  prober.start();
  await timers.advance(1000);
  assert.equal(requests[0]!.hostHeader, 'example.com');
  calls[0]!.settle(200);
  await prober.stop();
});

test('stop aborts in-flight probes and disarms the loops; late outcomes are not reported', async () => {
  const { timers, checker, prober, calls } = setup(hc(1, 1), ['10.0.0.1:80']);
  prober.start();
  await timers.advance(1000);
  assert.equal(calls.length, 1);
  await prober.stop(); // the fake probe settles with tcp_failure on abort
  assert.equal(checker.isUp('10.0.0.1:80'), true);
  assert.equal(timers.pending, 0);
  await timers.advance(10_000);
  assert.equal(calls.length, 1);
});
