import assert from 'node:assert/strict';
import { test } from 'node:test';
import { VerifyLimiter } from './verify-limiter.ts';

test('per address: perWindow checks a window, then "rate" with the seconds left; a new window starts afresh', () => {
  let now = 1_000_000;
  const limiter = new VerifyLimiter({ perWindow: 2, windowMs: 60_000, concurrent: 10, clock: () => now });
  for (let i = 0; i < 2; i++) {
    const taken = limiter.take('203.0.113.1');
    assert.equal(taken.ok, true);
    if (taken.ok) taken.release();
  }
  now += 15_000;
  assert.deepEqual(limiter.take('203.0.113.1'), { ok: false, reason: 'rate', retryAfterS: 45 });
  // Another address has its own count.
  assert.equal(limiter.take('203.0.113.2').ok, true);
  now += 45_000;
  assert.equal(limiter.take('203.0.113.1').ok, true, 'the next window');
});

test('across everyone: at most `concurrent` at once ("busy", never queued); a release frees a place, twice frees it once', () => {
  const limiter = new VerifyLimiter({ perWindow: 100, windowMs: 60_000, concurrent: 2, clock: () => 0 });
  const a = limiter.take('a');
  const b = limiter.take('b');
  assert.ok(a.ok && b.ok);
  assert.deepEqual(limiter.take('c'), { ok: false, reason: 'busy', retryAfterS: 2 });
  a.release();
  a.release();
  const c = limiter.take('c');
  assert.equal(c.ok, true);
  assert.deepEqual(limiter.take('d'), { ok: false, reason: 'busy', retryAfterS: 2 }, 'a double release does not open two places');
});
