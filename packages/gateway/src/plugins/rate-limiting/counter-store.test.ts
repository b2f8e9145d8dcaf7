// rate-limiting's counters and headers on an injected clock: Kong's windows, exact counting,
// refused requests not counted, expiry and the memory bound; and the headers of handler.lua.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterStore } from './counter-store.ts';
import { rateLimitHeaders } from './handler.ts';
import { windowStart } from './periods.ts';

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
