import assert from 'node:assert/strict';
import { test } from 'node:test';
import { afterAttempt, afterFailure, isLocked, type LoginFailures } from './login-throttle.ts';

const t0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(t0 + seconds * 1000);

test('five failures within 15 minutes lock the address for 15 minutes', () => {
  let state: LoginFailures | undefined;
  for (let i = 0; i < 4; i++) {
    state = afterFailure(state, at(i * 60));
    assert.equal(isLocked(state, at(i * 60)), false);
  }
  state = afterFailure(state, at(240));
  assert.deepEqual(state, { failures: 5, firstFailedAt: at(0).toISOString(), lockedUntil: at(240 + 900).toISOString() });
  assert.equal(isLocked(state, at(240 + 899)), true);
  assert.equal(isLocked(state, at(240 + 900)), false);
  // After the lock, counting starts again.
  assert.deepEqual(afterFailure(state, at(240 + 901)), { failures: 1, firstFailedAt: at(240 + 901).toISOString(), lockedUntil: null });
});

test('failures spread beyond the window do not add up', () => {
  let state: LoginFailures | undefined;
  for (let i = 0; i < 10; i++) state = afterFailure(state, at(i * 300));
  assert.equal(isLocked(state, at(2700)), false);
  assert.ok((state?.failures ?? 0) < 5);
  assert.equal(isLocked(undefined, at(0)), false);
});

test('an attempt counts before its password is checked; attempts while locked are refused and not counted', () => {
  let state: LoginFailures | undefined;
  for (let i = 0; i < 5; i++) {
    const attempt = afterAttempt(state, at(i));
    assert.equal(attempt.allowed, true);
    state = attempt.next;
  }
  assert.equal(isLocked(state, at(5)), true);
  assert.deepEqual(afterAttempt(state, at(6)), { allowed: false, next: state });
  assert.deepEqual(afterAttempt(state, at(4 + 900)), { allowed: true, next: { failures: 1, firstFailedAt: at(904).toISOString(), lockedUntil: null } });
});
