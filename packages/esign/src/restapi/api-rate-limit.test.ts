import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ApiRateLimiter } from './api-rate-limit.ts';

test('fixed windows: clock hours and burst slices per account; old hours are forgotten', () => {
  let now = Date.parse('2026-01-01T10:59:50Z');
  const limiter = new ApiRateLimiter({ hourly: 3, burst: 2, burstWindowMs: 30_000, now: () => new Date(now) });
  assert.equal(limiter.refusal('a'), undefined);
  assert.equal(limiter.count('a', true)['x-burstlimit-remaining'], '1');
  limiter.count('a', true);
  assert.equal(limiter.refusal('a'), 'BURST_APIINVOCATION_LIMIT_EXCEEDED');
  assert.equal(limiter.refusal('b'), undefined);
  now += 10_000; // 11:00:00, a new hour and a new burst slice
  assert.equal(limiter.refusal('a'), undefined);
  const h = limiter.count('a', true);
  assert.deepEqual([h['x-ratelimit-remaining'], h['x-ratelimit-reset']], ['2', String(Date.parse('2026-01-01T12:00:00Z') / 1000)]);
  limiter.count('a', true);
  now += 30_000;
  limiter.count('a', true);
  assert.equal(limiter.refusal('a'), 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED');
  assert.equal(limiter.count('a', false)['x-ratelimit-remaining'], '0');
});
