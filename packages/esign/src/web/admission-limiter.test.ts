import assert from 'node:assert/strict';
import { test } from 'node:test';
import { rateKey, AdmissionLimiter } from './admission-limiter.ts';

test('per client: perWindow requests a window, then "rate" with the seconds left; a new window starts afresh', () => {
  let now = 1_000_000;
  const limiter = new AdmissionLimiter({ perWindow: 2, windowMs: 60_000, inFlight: 10, clock: () => now });
  for (let i = 0; i < 2; i++) {
    const taken = limiter.admit('203.0.113.1');
    assert.equal(taken.ok, true);
    if (taken.ok) taken.release();
  }
  now += 15_000;
  assert.deepEqual(limiter.admit('203.0.113.1'), { ok: false, reason: 'rate', retryAfterS: 45 });
  // Another address has its own count.
  assert.equal(limiter.admit('203.0.113.2').ok, true);
  now += 45_000;
  assert.equal(limiter.admit('203.0.113.1').ok, true, 'the next window');
});

test('across everyone: at most `inFlight` at once ("busy", never queued); a release frees a place, twice frees it once', () => {
  const limiter = new AdmissionLimiter({ perWindow: 100, windowMs: 60_000, inFlight: 2, clock: () => 0 });
  const a = limiter.admit('198.51.100.1');
  const b = limiter.admit('198.51.100.2');
  assert.ok(a.ok && b.ok);
  assert.deepEqual(limiter.admit('198.51.100.3'), { ok: false, reason: 'busy', retryAfterS: 2 });
  a.release();
  a.release();
  const c = limiter.admit('198.51.100.3');
  assert.equal(c.ok, true);
  assert.deepEqual(limiter.admit('198.51.100.4'), { ok: false, reason: 'busy', retryAfterS: 2 }, 'a double release does not open two places');
});

test('one client cannot hold every place: at most perClient of its requests in flight', () => {
  const limiter = new AdmissionLimiter({ perWindow: 100, windowMs: 60_000, inFlight: 8, perClient: 2, clock: () => 0 });
  const first = limiter.admit('203.0.113.9');
  assert.ok(first.ok && limiter.admit('203.0.113.9').ok);
  assert.deepEqual(limiter.admit('203.0.113.9'), { ok: false, reason: 'busy', retryAfterS: 2 });
  assert.equal(limiter.admit('203.0.113.10').ok, true, 'others still get in');
  first.release();
  assert.equal(limiter.admit('203.0.113.9').ok, true);
});

test('IPv6 clients are counted by their /64: fresh addresses from one prefix share one budget', () => {
  assert.equal(rateKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(rateKey('2001:0db8:0001:0002:ffff:ffff:ffff:ffff'), '2001:db8:1:2::/64');
  assert.equal(rateKey('2001:db8::1'), '2001:db8:0:0::/64');
  assert.equal(rateKey('::1'), '0:0:0:0::/64');
  assert.equal(rateKey('::ffff:192.0.2.7'), '192.0.2.7', 'an IPv4-mapped address is its IPv4 address');
  assert.equal(rateKey('192.0.2.7'), '192.0.2.7');
  const limiter = new AdmissionLimiter({ perWindow: 3, windowMs: 60_000, inFlight: 100, perClient: 100, clock: () => 0 });
  for (let i = 1; i <= 3; i++) assert.equal(limiter.admit(`2001:db8:1:2::${i.toString(16)}`).ok, true);
  assert.deepEqual(limiter.admit('2001:db8:1:2:dead:beef:0:1'), { ok: false, reason: 'rate', retryAfterS: 60 });
  assert.equal(limiter.admit('2001:db8:1:3::1').ok, true, 'the next /64 is another client');
});
