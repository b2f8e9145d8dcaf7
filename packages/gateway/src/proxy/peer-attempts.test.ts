import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Balancer, type Address } from '../balancer/index.ts';
import type { Upstream } from '../declarative/types.ts';
import { PeerAttempts, type BalancedTarget } from './peer-attempts.ts';
import type { AttemptOutcome } from './proxy-hooks.ts';

const upstream = { name: 'u.test' } as Upstream;

function balanced(algorithm: string, weights: readonly number[], retries: number, extra: Partial<Upstream> = {}): BalancedTarget & { balancer: Balancer } {
  const balancer = new Balancer(
    { name: 'u.test', algorithm, healthchecks: { threshold: 0 }, ...extra },
    weights.map((weight, i) => ({ id: `t${i}`, target: `10.0.0.${i + 1}:80`, weight })),
    { random: () => 0.5 },
  );
  return { service: { retries }, upstream, balancer, endpoint: undefined };
}

function recorder(): { reports: string[]; hooks: { onAttempt(u: Upstream, a: Address, o: AttemptOutcome, r: boolean): void } } {
  const reports: string[] = [];
  return { reports, hooks: { onAttempt: (_u, a, o, r) => reports.push(`${a.key} ${String(o)}${r ? ' retried' : ''}`) } };
}

test('failed attempts are reported, skipped on the next pick, and stop when the retries run out', () => {
  const target = balanced('least-connections', [50, 20, 10], 2);
  const { reports, hooks } = recorder();
  const attempts = new PeerAttempts(target, hooks, undefined);
  const picks: string[] = [];
  for (;;) {
    picks.push(attempts.pick()!.key);
    if (!attempts.failed('tcp_failure')) break;
  }
  assert.deepEqual(picks, ['10.0.0.1:80', '10.0.0.2:80', '10.0.0.3:80']);
  assert.deepEqual(reports, ['10.0.0.1:80 tcp_failure retried', '10.0.0.2:80 tcp_failure retried', '10.0.0.3:80 tcp_failure']);
  // Every attempt was released: the balancer counts no connection.
  const lc = new PeerAttempts(target, undefined, undefined);
  assert.equal(lc.pick()!.key, '10.0.0.1:80');
});

test('a non-retryable failure (body started) reports retried=false and gives up with retries left', () => {
  const { reports, hooks } = recorder();
  const attempts = new PeerAttempts(balanced('round-robin', [1], 5), hooks, undefined);
  attempts.pick();
  assert.equal(attempts.failed('timeout', false), false);
  assert.deepEqual(reports, ['10.0.0.1:80 timeout']);
});

test('an answer is reported once; release is idempotent and keeps the address for logs', () => {
  const target = balanced('least-connections', [10, 10], 0);
  const { reports, hooks } = recorder();
  const first = new PeerAttempts(target, hooks, undefined);
  const a = first.pick()!;
  first.answered(200);
  first.release(12);
  first.release(12);
  assert.equal(first.address?.key, a.key);
  assert.deepEqual(reports, [`${a.key} 200`]);
  // The count is back to zero on both: two requests in flight go to different addresses.
  const second = new PeerAttempts(target, undefined, undefined);
  const third = new PeerAttempts(target, undefined, undefined);
  assert.notEqual(second.pick()!.key, third.pick()!.key);
});

test('consistent-hashing: the hash input is read once, on the first pick; retries keep its value', () => {
  const target = balanced('consistent-hashing', [10, 10, 10], 3, { hash_on: 'header', hash_on_header: 'h' });
  let reads = 0;
  const attempts = new PeerAttempts(target, undefined, () => {
    reads++;
    return { clientIp: '127.0.0.1', headers: { h: 'v' } };
  });
  const first = attempts.pick()!.key;
  attempts.failed('tcp_failure');
  attempts.pick();
  assert.equal(reads, 1);
  // The same value lands on the same address for another request.
  assert.equal(new PeerAttempts(target, undefined, () => ({ clientIp: '127.0.0.2', headers: { h: 'v' } })).pick()!.key, first);
});

test('cookie hashing without the cookie gives the Set-Cookie to answer with', () => {
  const target = balanced('consistent-hashing', [10, 10], 0, { hash_on: 'cookie', hash_on_cookie: 'c', hash_on_cookie_path: '/' });
  const attempts = new PeerAttempts(target, undefined, () => ({ clientIp: '127.0.0.1', headers: {} }));
  attempts.pick();
  assert.match(attempts.setCookie ?? '', /^c=[0-9a-f-]{36}; Path=\/; Same-Site=Lax; HttpOnly$/);
});

test('a service endpoint (no upstream): retried as often, nothing reported', () => {
  const { reports, hooks } = recorder();
  const endpoint = { host: '127.0.0.1', port: 9, key: '127.0.0.1:9' };
  const attempts = new PeerAttempts({ service: { retries: 1 }, upstream: undefined, balancer: undefined, endpoint }, hooks, undefined);
  assert.equal(attempts.pick(), endpoint);
  assert.equal(attempts.failed('tcp_failure'), true);
  assert.equal(attempts.pick(), endpoint);
  assert.equal(attempts.failed('tcp_failure'), false);
  assert.deepEqual(reports, []);
});

test('an unhealthy balancer gives no peer', () => {
  const target = balanced('round-robin', [10], 0);
  target.balancer.setAddressStatus('10.0.0.1:80', false);
  assert.equal(new PeerAttempts(target, undefined, undefined).pick(), undefined);
});
