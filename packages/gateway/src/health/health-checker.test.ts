import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HealthChecker, type HealthOutcome } from './health-checker.ts';
import type { CheckMode } from './compiled-checks.ts';
import type { InternalHealth } from './target-state.ts';
import { healthchecks, upstream } from '../../test/health/health.fixture.ts';
import type { Healthchecks } from '../declarative/types.ts';

const KEY = '10.0.0.1:80';

function checker(hc: Healthchecks) {
  const events: InternalHealth[] = [];
  const c = new HealthChecker(upstream('svc', hc), (_u, _a, h) => events.push(h));
  c.add({ key: KEY, host: '10.0.0.1', port: 80, hostname: '10.0.0.1' });
  const feed = (mode: CheckMode, ...outcomes: HealthOutcome[]): void => {
    for (const o of outcomes) c.report(KEY, o, mode);
  };
  return { c, events, feed };
}

test('Kong 01-healthchecks_spec at unit level: passive http_failures N ejects after exactly N upstream 500s', () => {
  for (const n of [1, 2, 3]) {
    const { c, feed } = checker(healthchecks({ passive: { unhealthy: { http_failures: n } } }));
    for (let i = 1; i <= n; i++) {
      assert.equal(c.isUp(KEY), true, `N=${n} before failure ${i}`);
      feed('passive', 500);
    }
    assert.equal(c.isUp(KEY), false, `N=${n}`);
  }
});

test('passive: an upstream 504 is a timeout, not an HTTP failure', () => {
  const { c, feed } = checker(healthchecks({ passive: { unhealthy: { timeouts: 1, http_failures: 5, http_statuses: [504] } } }));
  feed('passive', 504);
  assert.deepEqual(c.state(KEY), { health: 'unhealthy', counters: { success: 0, http: 0, tcp: 0, timeout: 1 } });
});

test('active: a probe 504 is an HTTP status like any other', () => {
  const { c, feed } = checker(healthchecks({ active: { unhealthy: { timeouts: 1, http_failures: 2, interval: 1 } } }));
  feed('active', 504);
  assert.deepEqual(c.state(KEY)?.counters, { success: 0, http: 1, tcp: 0, timeout: 0 });
});

test('passive checks never bring a down target back by themselves', () => {
  const { c, feed } = checker(healthchecks({ passive: { healthy: { successes: 1 }, unhealthy: { http_failures: 1 } } }));
  feed('passive', 500);
  assert.equal(c.isUp(KEY), false);
  feed('passive', 200, 200, 200);
  assert.equal(c.state(KEY)?.health, 'unhealthy');
  // …but they do count while the target is still up (mostly_healthy → healthy).
  const { c: c2, feed: feed2 } = checker(healthchecks({ passive: { healthy: { successes: 1 }, unhealthy: { http_failures: 2 } } }));
  feed2('passive', 500);
  assert.equal(c2.state(KEY)?.health, 'mostly_healthy');
  feed2('passive', 200);
  assert.equal(c2.state(KEY)?.health, 'healthy');
});

test('statuses in neither list are ignored and reset nothing', () => {
  const { c, feed } = checker(healthchecks({ passive: { unhealthy: { http_failures: 2 } } }));
  feed('passive', 500, 404, 418, 502);
  assert.deepEqual(c.state(KEY), { health: 'mostly_healthy', counters: { success: 0, http: 1, tcp: 0, timeout: 0 } });
});

test('healthcheck t/09 TEST 3/4: custom lists replace the defaults', () => {
  const only429 = checker(healthchecks({ active: { unhealthy: { http_statuses: [429], http_failures: 1, interval: 1 } } }));
  only429.feed('active', 500);
  assert.deepEqual(only429.c.state(KEY)?.counters, { success: 0, http: 0, tcp: 0, timeout: 0 });
  assert.equal(only429.c.isUp(KEY), true);
  const with401 = checker(healthchecks({ active: { unhealthy: { http_statuses: [401], http_failures: 1, interval: 1 } } }));
  with401.feed('active', 401);
  assert.equal(with401.c.isUp(KEY), false);
});

test('status 0 (no parsable status line) counts as an HTTP failure', () => {
  const { c, feed } = checker(healthchecks({ active: { unhealthy: { http_failures: 1, interval: 1 } } }));
  feed('active', 0);
  assert.equal(c.isUp(KEY), false);
});

test('active and passive share the counters, each with its own limits', () => {
  const { c, feed } = checker(
    healthchecks({ active: { unhealthy: { http_failures: 3, interval: 1 } }, passive: { unhealthy: { http_failures: 3 } } }),
  );
  feed('active', 500);
  feed('passive', 500);
  assert.equal(c.isUp(KEY), true);
  feed('active', 500);
  assert.equal(c.isUp(KEY), false);
});

test('a threshold of 0 in one mode makes that mode a no-op for that kind', () => {
  const { c, feed } = checker(healthchecks({ passive: { unhealthy: { tcp_failures: 1 } } }));
  feed('passive', 500, 500, 500, 'timeout', 'timeout');
  assert.deepEqual(c.state(KEY), { health: 'healthy', counters: { success: 0, http: 0, tcp: 0, timeout: 0 } });
  feed('passive', 'tcp_failure');
  assert.equal(c.isUp(KEY), false);
});

test('tcp probes: a connect is a success towards healthy.successes', () => {
  const { c, feed } = checker(healthchecks({ active: { type: 'tcp', healthy: { successes: 2, interval: 1 }, unhealthy: { tcp_failures: 1 } } }));
  feed('active', 'tcp_failure');
  assert.equal(c.isUp(KEY), false);
  feed('active', 'connected');
  assert.equal(c.state(KEY)?.health, 'mostly_unhealthy');
  feed('active', 'connected');
  assert.equal(c.isUp(KEY), true);
});

test('setStatus resets the counters and raises an event even when the state is unchanged', () => {
  const { c, events, feed } = checker(healthchecks({ passive: { unhealthy: { http_failures: 3 } } }));
  feed('passive', 500, 500);
  assert.deepEqual(events, ['mostly_healthy']);
  assert.equal(c.setStatus(KEY, true), true);
  assert.deepEqual(c.state(KEY), { health: 'healthy', counters: { success: 0, http: 0, tcp: 0, timeout: 0 } });
  assert.deepEqual(events, ['mostly_healthy', 'healthy']);
  assert.equal(c.setStatus('10.9.9.9:1', false), false);
});

test('isNoop agrees with report: a forwarded report is one that can change the state', () => {
  const hc = healthchecks({ passive: { healthy: { successes: 2 }, unhealthy: { http_failures: 2, timeouts: 2 } } });
  const outcomes: HealthOutcome[] = [200, 500, 504, 418, 'timeout', 'tcp_failure'];
  const prefixes: HealthOutcome[][] = [[], [500], [500, 500], [500, 200], [500, 500, 200]];
  for (const prefix of prefixes) {
    for (const outcome of outcomes) {
      const { c, feed } = checker(hc);
      feed('passive', ...prefix);
      const before = c.state(KEY)!;
      const noop = c.isNoop(KEY, outcome, 'passive', before.health);
      feed('passive', outcome);
      if (noop) assert.equal(c.state(KEY), before, `${prefix.join(',')} then ${outcome}`);
    }
  }
});
