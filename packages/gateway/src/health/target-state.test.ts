import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyReport, forcedState, INITIAL_TARGET_STATE, isUp, type CounterKind, type TargetState } from './target-state.ts';

const run = (state: TargetState, steps: ReadonlyArray<readonly [CounterKind, number]>): TargetState =>
  steps.reduce((s, [kind, limit]) => applyReport(s, kind, limit), state);

test('a limit of 0 is a complete no-op: the same object back, no counter reset', () => {
  const s = applyReport(INITIAL_TARGET_STATE, 'http', 5);
  assert.deepEqual(s.counters, { success: 0, http: 1, tcp: 0, timeout: 0 });
  for (const kind of ['success', 'http', 'tcp', 'timeout'] as const) assert.equal(applyReport(s, kind, 0), s);
});

test('a fully healthy target ignores successes; a fully unhealthy one ignores failures', () => {
  assert.equal(applyReport(INITIAL_TARGET_STATE, 'success', 3), INITIAL_TARGET_STATE);
  const down = forcedState(false);
  for (const kind of ['http', 'tcp', 'timeout'] as const) assert.equal(applyReport(down, kind, 3), down);
});

test('a success clears the failure counters; a failure clears only the success counter', () => {
  let s = run(INITIAL_TARGET_STATE, [['http', 9], ['tcp', 9], ['timeout', 9], ['timeout', 9]]);
  assert.deepEqual(s, { health: 'mostly_healthy', counters: { success: 0, http: 1, tcp: 1, timeout: 2 } });
  s = applyReport(s, 'success', 9);
  assert.deepEqual(s, { health: 'mostly_healthy', counters: { success: 1, http: 0, tcp: 0, timeout: 0 } });
  s = applyReport(s, 'tcp', 9);
  assert.deepEqual(s, { health: 'mostly_healthy', counters: { success: 0, http: 0, tcp: 1, timeout: 0 } });
});

test('failure kinds do not clear each other: each needs its own limit', () => {
  // http limit 2, tcp limit 2: http, tcp, http → the second http reaches 2.
  const s = run(INITIAL_TARGET_STATE, [['http', 2], ['tcp', 2], ['http', 2]]);
  assert.equal(s.health, 'unhealthy');
  assert.deepEqual(s.counters, { success: 0, http: 2, tcp: 1, timeout: 0 });
});

test('healthcheck.lua incr_counter: with successes = 0, a run of 500, 200, 500 counts 2 HTTP failures', () => {
  const s = run(INITIAL_TARGET_STATE, [['http', 3], ['success', 0], ['http', 3]]);
  assert.equal(s.counters.http, 2);
  assert.equal(s.health, 'mostly_healthy');
  assert.equal(applyReport(s, 'http', 3).health, 'unhealthy');
});

test('mostly_unhealthy: the first success on an unhealthy target, still down', () => {
  const s = applyReport(forcedState(false), 'success', 3);
  assert.deepEqual(s, { health: 'mostly_unhealthy', counters: { success: 1, http: 0, tcp: 0, timeout: 0 } });
  assert.equal(isUp(s.health), false);
  assert.equal(run(s, [['success', 3], ['success', 3]]).health, 'healthy');
});

test('healthcheck t/05, t/06: 3 failures to fall, 4 successes to rise', () => {
  let s = INITIAL_TARGET_STATE;
  s = run(s, [['http', 3], ['http', 3]]);
  assert.equal(isUp(s.health), true);
  s = applyReport(s, 'http', 3);
  assert.equal(s.health, 'unhealthy');
  s = run(s, [['success', 4], ['success', 4], ['success', 4]]);
  assert.equal(isUp(s.health), false);
  s = applyReport(s, 'success', 4);
  assert.equal(s.health, 'healthy');
});

test('healthcheck t/12 TEST 3: 500 → set healthy → 500 stays healthy → 500 falls (http_failures 2)', () => {
  let s = applyReport(INITIAL_TARGET_STATE, 'http', 2);
  s = forcedState(true);
  s = applyReport(s, 'http', 2);
  assert.equal(isUp(s.health), true);
  s = applyReport(s, 'http', 2);
  assert.equal(s.health, 'unhealthy');
});

test('healthcheck t/12: set unhealthy → 200 → set unhealthy → 200 stays down → 200 rises (successes 2)', () => {
  let s = applyReport(forcedState(false), 'success', 2);
  s = forcedState(false);
  s = applyReport(s, 'success', 2);
  assert.equal(isUp(s.health), false);
  s = applyReport(s, 'success', 2);
  assert.equal(s.health, 'healthy');
});

// healthcheck t/13-integration.t brute-forces every sequence up to length 5 against this
// reference model (limits 2): S → s++, f=t=o=0, s==2 → healthy; F/T/O → that++, s=0, ==2 → unhealthy.
test('matches healthcheck t/13 reference model over every sequence of length ≤ 5 (limits 2)', () => {
  const kinds: CounterKind[] = ['success', 'http', 'tcp', 'timeout'];
  let checked = 0;
  const walk = (seq: CounterKind[]): void => {
    if (seq.length > 0) {
      const ref = { success: 0, http: 0, tcp: 0, timeout: 0 };
      let refUp = true;
      let state = INITIAL_TARGET_STATE;
      for (const k of seq) {
        if (k === 'success') {
          ref.success++;
          ref.http = ref.tcp = ref.timeout = 0;
          if (ref.success === 2) refUp = true;
        } else {
          ref[k]++;
          ref.success = 0;
          if (ref[k] === 2) refUp = false;
        }
        state = applyReport(state, k, 2);
        assert.equal(isUp(state.health), refUp, `after ${seq.join(',')}`);
      }
      checked++;
    }
    if (seq.length < 5) for (const k of kinds) walk([...seq, k]);
  };
  walk([]);
  assert.equal(checked, 4 + 16 + 64 + 256 + 1024);
});
