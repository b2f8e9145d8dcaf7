import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterCrash, DEFAULT_RESTART_POLICY, NO_CRASHES, type CrashRecord } from './restart-policy.ts';

const policy = DEFAULT_RESTART_POLICY;

test('crashes in a row double the delay up to the cap, and keep being retried there', () => {
  let record: CrashRecord = NO_CRASHES;
  const delays: number[] = [];
  const looping: boolean[] = [];
  for (let i = 0; i < 8; i++) {
    const next = afterCrash(record, 2_000, policy);
    record = next.record;
    delays.push(next.delayMs);
    looping.push(next.looping);
  }
  assert.deepEqual(delays, [1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
  assert.deepEqual(looping, [false, false, true, true, true, true, true, true]);
  assert.deepEqual(record, { inARow: 8, total: 8 });
});

test('a run longer than stableAfterMs forgives the earlier crashes, but the total is kept', () => {
  let record = afterCrash(NO_CRASHES, 10, policy).record;
  record = afterCrash(record, 10, policy).record;
  const stable = afterCrash(record, policy.stableAfterMs, policy);
  assert.equal(stable.delayMs, policy.initialMs);
  assert.deepEqual(stable.record, { inARow: 1, total: 3 });
  assert.equal(stable.looping, false);
});
