// rate-limiting's counters and headers on an injected clock: Kong's windows, exact counting,
// refused requests not counted, expiry and the memory bound; and the headers of handler.lua.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CounterStore } from './counter-store.ts';
import { RateLimitPlan } from './rate-limit-plan.ts';
import { windowStart, type Period } from './periods.ts';

test('take: counts until the limit, then refuses without counting; a new window starts at 0', () => {
  let now = Date.UTC(2026, 10, 26, 10, 0, 0, 100);
  const store = new CounterStore(() => now);
  const ask = () => [{ key: `k:${windowStart('second', now)}:second`, limit: 2, expireSeconds: 1 }];
  assert.deepEqual([store.take(ask()), store.take(ask()), store.take(ask()), store.take(ask())], [[0], [1], [2], [2]]);
  now += 900; // next second
  assert.deepEqual(store.take(ask()), [0]);
});

test('take: one exhausted period refuses the request in every period', () => {
  const store = new CounterStore(() => 0);
  const asks = [{ key: 's', limit: 1, expireSeconds: 1 }, { key: 'm', limit: 10, expireSeconds: 60 }];
  assert.deepEqual(store.take(asks), [0, 0]);
  assert.deepEqual(store.take(asks), [1, 1]);
  assert.deepEqual(store.take([{ key: 'm', limit: 10, expireSeconds: 60 }]), [1]);
});

test('expired counters are swept; the store stays under its bound (oldest dropped)', () => {
  let now = 0;
  const store = new CounterStore(() => now, 3);
  for (const key of ['a', 'b', 'c', 'd']) store.take([{ key, limit: 5, expireSeconds: 1 }]);
  assert.equal(store.size, 3);
  assert.deepEqual(store.take([{ key: 'a', limit: 5, expireSeconds: 1 }]), [0]);
  now = 5000;
  store.take([{ key: 'z', limit: 5, expireSeconds: 60 }]);
  assert.equal(store.size, 1);
});

test("windows follow Kong's get_timestamps (UTC calendar)", () => {
  const t = Date.UTC(2026, 10, 26, 10, 42, 17, 250);
  assert.equal(windowStart('second', t), Date.UTC(2026, 10, 26, 10, 42, 17));
  assert.equal(windowStart('minute', t), Date.UTC(2026, 10, 26, 10, 42));
  assert.equal(windowStart('hour', t), Date.UTC(2026, 10, 26, 10));
  assert.equal(windowStart('day', t), Date.UTC(2026, 10, 26));
  assert.equal(windowStart('month', t), Date.UTC(2026, 10, 1));
  assert.equal(windowStart('year', t), Date.UTC(2026, 0, 1));
});

// The headers an instance with these limits sends for these usages, and whether it refuses.
function rateLimitHeaders(periods: readonly Period[], limits: readonly number[], usages: readonly number[], now: number) {
  const plan = new RateLimitPlan((p) => (periods.includes(p) ? limits[periods.indexOf(p)]! : null), 'r:s');
  const headers: [string, string][] = [];
  plan.setHeaders({ setKnown: (_lower, name, value) => headers.push([name, value]) }, { usages, starts: plan.starts(now), now });
  return { stop: plan.stopAt(usages) !== -1, headers };
}

test('headers: per period, the most constrained period in RateLimit-*, Retry-After when refused', () => {
  const now = Date.UTC(2026, 10, 26, 10, 42, 17, 250);
  const passing = rateLimitHeaders(['second', 'minute'], [3, 10], [1, 8], now);
  assert.equal(passing.stop, false);
  assert.deepEqual(Object.fromEntries(passing.headers), {
    'X-RateLimit-Limit-Second': '3', 'X-RateLimit-Remaining-Second': '1',
    'X-RateLimit-Limit-Minute': '10', 'X-RateLimit-Remaining-Minute': '1',
    // A tie between second and minute: the longer window; 43 s left in the minute.
    'RateLimit-Limit': '10', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '43',
  });
  const refused = rateLimitHeaders(['second', 'minute'], [3, 10], [3, 9], now);
  assert.equal(refused.stop, true);
  assert.deepEqual(Object.fromEntries(refused.headers), {
    'X-RateLimit-Limit-Second': '3', 'X-RateLimit-Remaining-Second': '0',
    'X-RateLimit-Limit-Minute': '10', 'X-RateLimit-Remaining-Minute': '1',
    'RateLimit-Limit': '3', 'RateLimit-Remaining': '0', 'RateLimit-Reset': '1', 'Retry-After': '1',
  });
});

test("counter keys: Kong's layout per period; the same client in the same windows reuses them", () => {
  const plan = new RateLimitPlan((p) => (p === 'second' ? 5 : p === 'day' ? 100 : null), 'r-1:s-1');
  const t = Date.UTC(2026, 10, 26, 10, 42, 17, 250);
  const first = plan.asks('10.0.0.1', plan.starts(t));
  assert.deepEqual(first, [
    { key: `ratelimit:r-1:s-1:10.0.0.1:${Date.UTC(2026, 10, 26, 10, 42, 17)}:second`, limit: 5, expireSeconds: 1 },
    { key: `ratelimit:r-1:s-1:10.0.0.1:${Date.UTC(2026, 10, 26)}:day`, limit: 100, expireSeconds: 86400 },
  ]);
  assert.equal(plan.asks('10.0.0.1', plan.starts(t + 500)), first);
  assert.equal(plan.asks('10.0.0.2', plan.starts(t + 500))[0]!.key, `ratelimit:r-1:s-1:10.0.0.2:${Date.UTC(2026, 10, 26, 10, 42, 17)}:second`);
  assert.equal(plan.asks('10.0.0.1', plan.starts(t + 1000))[0]!.key, `ratelimit:r-1:s-1:10.0.0.1:${Date.UTC(2026, 10, 26, 10, 42, 18)}:second`);
});

test('day windows start at UTC midnight across a year of instants (the fixed-length day path)', () => {
  for (let t = Date.UTC(2024, 0, 1); t < Date.UTC(2025, 0, 1); t += 7_777_777) {
    const d = new Date(t);
    assert.equal(windowStart('day', t), Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  }
});

test('starts: the same windows all through a second (made once), the next ones from the next second, across a month', () => {
  const plan = new RateLimitPlan((p) => (p === 'second' || p === 'minute' || p === 'month' ? 5 : null), 'r:s');
  const expect = (t: number) => plan.periods.map((p) => windowStart(p, t));
  const t = Date.UTC(2026, 10, 30, 23, 59, 59, 10);
  const first = plan.starts(t);
  assert.deepEqual(first, expect(t));
  assert.equal(plan.starts(t + 989), first, 'the same list within the second');
  // One millisecond later a new second, minute, day and month begin.
  assert.deepEqual(plan.starts(t + 990), expect(t + 990));
  assert.deepEqual(plan.starts(t + 990), [Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 1), Date.UTC(2026, 11, 1)]);
  // A clock that goes back (NTP) gets its own windows too.
  assert.deepEqual(plan.starts(t - 60_000), expect(t - 60_000));
});

test('setHeaders: every name is given with its own lower case (the head matches on it)', () => {
  const plan = new RateLimitPlan(() => 100, 'r:s');
  const now = Date.UTC(2026, 10, 26, 10, 42, 17, 250);
  const given: [string, string][] = [];
  plan.setHeaders({ setKnown: (lower, name) => given.push([lower, name]) }, { usages: plan.periods.map(() => 100), starts: plan.starts(now), now });
  assert.ok(given.length >= 2 * plan.periods.length + 4, 'every period, RateLimit-* and Retry-After');
  for (const [lower, name] of given) assert.equal(lower, name.toLowerCase());
});

test('a long, client-chosen identifier costs the store a bounded key: the same one counts together, others apart', () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const store = new CounterStore(() => 0);
  const ask = (id: string) => [{ key: `ratelimit:r:s:${id}:0:second`, limit: 2, expireSeconds: 1 }];
  gc();
  const before = getHeapStatistics().used_heap_size;
  // 2,000 identifiers of 64 KiB each (a `limit_by: header` with a large header): 125 MiB as raw keys.
  for (let i = 0; i < 2000; i++) store.take(ask(randomBytes(32 * 1024).toString('hex')));
  gc();
  const grown = getHeapStatistics().used_heap_size - before;
  assert.equal(store.size, 2000);
  assert.ok(grown < 16 * 1024 * 1024, `the store grew by ${grown} bytes`);
  const long = 'y'.repeat(300);
  assert.deepEqual([store.take(ask(long)), store.take(ask(long)), store.take(ask(long))], [[0], [1], [2]]);
  assert.deepEqual(store.take(ask(`${long}z`)), [0]);
  assert.deepEqual(store.read([`ratelimit:r:s:${long}:0:second`]), [2]);
});
