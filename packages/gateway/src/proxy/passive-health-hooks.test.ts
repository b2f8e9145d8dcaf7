import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from '../balancer/index.ts';
import { upstream } from '../../test/snapshot.fixture.ts';
import { passiveHealthHooks } from './passive-health-hooks.ts';
import type { AttemptOutcome } from './proxy-hooks.ts';

const up = upstream({ name: 'u' });
const address: Address = { key: '10.0.0.1:80', host: '10.0.0.1', port: 80, weight: 10, targetId: 't', target: '10.0.0.1:80', available: true };

// docs/gateway-health.md, "Passive specifics": what each attempt outcome becomes in the passive checker.
const cases: [AttemptOutcome, boolean, number | string][] = [
  [200, false, 200],
  [500, false, 500],
  [504, false, 'timeout'],
  ['timeout', true, 'timeout'],
  ['timeout', false, 'timeout'],
  ['tcp_failure', true, 'tcp_failure'],
  ['tcp_failure', false, 502],
];

for (const [outcome, retried, expected] of cases) {
  test(`passive report: ${outcome}${retried ? ' (retried)' : ''} → ${expected}`, () => {
    const reports: unknown[][] = [];
    const hooks = passiveHealthHooks({ reportPassive: (...args) => void reports.push(args) });
    hooks.onAttempt!(up, address, outcome, retried);
    assert.deepEqual(reports, [['u', '10.0.0.1:80', expected]]);
  });
}
