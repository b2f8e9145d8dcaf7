import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EsignError } from '../errors.ts';
import { ApiRateLimiter } from './api-rate-limit.ts';

function refusalOf(limiter: ApiRateLimiter, account: string): string | undefined {
  try {
    limiter.take(account);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof EsignError);
    return err.code;
  }
}

test('fixed windows: clock hours and burst slices per account; refused calls are not counted', () => {
  let now = Date.parse('2026-01-01T10:59:50Z');
  const limiter = new ApiRateLimiter({ hourly: 3, burst: 2, burstWindowMs: 30_000, now: () => new Date(now) });
  assert.equal(limiter.take('a')['x-burstlimit-remaining'], '1');
  limiter.take('a');
  assert.equal(refusalOf(limiter, 'a'), 'BURST_APIINVOCATION_LIMIT_EXCEEDED');
  assert.equal(refusalOf(limiter, 'b'), undefined);
  now += 10_000; // 11:00:00, a new hour and a new burst slice
  const h = limiter.take('a');
  assert.deepEqual([h['x-ratelimit-remaining'], h['x-ratelimit-reset']], ['2', String(Date.parse('2026-01-01T12:00:00Z') / 1000)]);
  limiter.take('a');
  now += 30_000;
  limiter.take('a');
  try {
    limiter.take('a');
    assert.fail('refused');
  } catch (err) {
    assert.equal((err as EsignError).code, 'HOURLY_APIINVOCATION_LIMIT_EXCEEDED');
    assert.equal((err as { headers: Record<string, string> }).headers['x-ratelimit-remaining'], '0');
  }
});

test('the table is bounded: a new hour empties it, and past the cap the oldest account is forgotten', () => {
  let now = Date.parse('2026-01-01T10:00:00Z');
  const limiter = new ApiRateLimiter({ hourly: 10, burst: 10, burstWindowMs: 30_000, now: () => new Date(now), maxAccounts: 3 });
  for (const a of ['a', 'b', 'c', 'd']) limiter.take(a);
  assert.equal(limiter.size, 3);
  assert.equal(limiter.take('a')['x-ratelimit-remaining'], '9', 'a was forgotten and counts afresh');
  now += 3_600_000;
  limiter.take('x');
  assert.equal(limiter.size, 1);
});
