import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cpusForWorker, formatCpuAffinity, parseCpuAffinity } from './cpu-affinity-setting.ts';

test('parseCpuAffinity: nginx\'s worker_cpu_affinity forms; anything else names what it takes', () => {
  assert.deepEqual(parseCpuAffinity('auto'), { kind: 'auto' });
  assert.deepEqual(parseCpuAffinity(' auto  1010 '), { kind: 'auto', within: [1, 3] });
  // The rightmost digit is CPU 0: one mask per worker.
  assert.deepEqual(parseCpuAffinity('0001 0010 1100'), { kind: 'masks', masks: [[0], [1], [2, 3]] });
  for (const bad of ['', 'on', 'off', '012', 'auto 01 10', 'auto auto', '01 auto']) {
    assert.throws(() => parseCpuAffinity(bad), { message: `expected "auto", "auto <mask>" or a binary CPU mask per worker (nginx's worker_cpu_affinity), got '${bad}'` }, bad);
  }
  // A mask of zeros is a mask, but binds to nothing.
  assert.throws(() => parseCpuAffinity('01 0000'), { message: "'0000' names no CPU (a mask's rightmost digit is CPU 0)" });
  assert.throws(() => parseCpuAffinity('auto 0'), { message: "'0' names no CPU (a mask's rightmost digit is CPU 0)" });
});

test('cpusForWorker: auto deals the CPUs this process may use in turn; masks go by worker, the last one for the rest', () => {
  const auto = parseCpuAffinity('auto');
  assert.deepEqual([0, 1, 2].map((slot) => cpusForWorker(auto, slot, [0, 1])), [[0], [1], [0]]);
  // Inside a cpuset (a container given CPUs 2 and 3), auto takes those.
  assert.deepEqual([0, 1].map((slot) => cpusForWorker(auto, slot, [2, 3])), [[2], [3]]);
  assert.deepEqual([0, 1].map((slot) => cpusForWorker(parseCpuAffinity('auto 10'), slot, [0, 1])), [[1], [1]]);
  const masks = parseCpuAffinity('01 10');
  assert.deepEqual([0, 1, 5].map((slot) => cpusForWorker(masks, slot, [0, 1])), [[0], [1], [1]]);
  // CPUs this process may not use are dropped; none left is empty (start refuses it).
  assert.deepEqual(cpusForWorker(parseCpuAffinity('11'), 0, [1]), [1]);
  assert.deepEqual(cpusForWorker(parseCpuAffinity('100'), 0, [0, 1]), []);
  assert.deepEqual(cpusForWorker(parseCpuAffinity('auto 100'), 0, [0, 1]), []);
});

test('formatCpuAffinity: the setting as nginx writes it, read back the same', () => {
  for (const value of ['auto', 'auto 1010', '0001 0010 1100']) assert.equal(formatCpuAffinity(parseCpuAffinity(value)), value);
  assert.equal(formatCpuAffinity(parseCpuAffinity('auto 0110')), 'auto 110', 'leading zeros dropped');
});
