import { test } from 'node:test';
import assert from 'node:assert/strict';
import { balancerHealthy } from './balancer-healthy.ts';

test('threshold is strict (balancers.lua updateStatus; Kong 01-healthchecks_spec threshold table)', () => {
  const cases: ReadonlyArray<readonly [available: number, threshold: number, healthy: boolean]> = [
    [100, 0, true], [100, 25, true], [100, 75, true], [100, 99, true], [100, 100, false],
    [75, 0, true], [75, 25, true], [75, 75, false], [75, 99, false],
    [50, 0, true], [50, 25, true], [50, 50, false], [50, 75, false],
    [25, 0, true], [25, 25, false], [0, 0, false], [0, 100, false],
  ];
  for (const [available, threshold, healthy] of cases) {
    assert.equal(balancerHealthy(100, 100 - available, threshold), healthy, `${available}/100 at ${threshold}`);
  }
});

test('Kong generic_spec: threshold 50 over 3 targets of 100', () => {
  assert.equal(balancerHealthy(300, 0, 50), true);
  assert.equal(balancerHealthy(300, 100, 50), true);
  assert.equal(balancerHealthy(300, 200, 50), false);
});

test('no weight at all is unhealthy (all targets weight 0, or none)', () => {
  assert.equal(balancerHealthy(0, 0, 0), false);
});
