import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Balancer } from './balancer.ts';
import { addressOf } from '../health/health-registry.ts';

// A seeded PRNG (mulberry32): wheels are shuffled, but reproducibly.
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const upstream = (threshold = 0) => ({ name: 'u', algorithm: 'round-robin', healthchecks: { threshold } });
const targets = (...weights: number[]) =>
  weights.map((weight, i) => ({ id: `t${i}`, target: `127.0.0.1:${9000 + i}`, weight }));

function count(b: Balancer, picks: number): number[] {
  const hits = b.addresses.map(() => 0);
  for (let i = 0; i < picks; i++) {
    const a = b.getPeer();
    if (!a) continue;
    hits[b.addresses.indexOf(a)]!++;
  }
  return hits;
}

// Kong's 04-round-robin_spec.lua (integration and spec/01-unit/09-balancer) at the unit level: the wheel is exact per full turn.
const cases: { name: string; weights: number[]; down?: number[]; picks: number; expected: number[] }[] = [
  { name: '1. equal weights 10/10', weights: [10, 10], picks: 20, expected: [10, 10] },
  { name: '2. third target of weight 5', weights: [10, 10, 5], picks: 20, expected: [8, 8, 4] },
  { name: '3. weight changed to 15', weights: [10, 15], picks: 20, expected: [8, 12] },
  { name: '4. weight 0 gets nothing', weights: [10, 0], picks: 20, expected: [20, 0] },
  { name: '5. all weights 0', weights: [0, 0], picks: 20, expected: [0, 0] },
  { name: '6. no targets', weights: [], picks: 20, expected: [] },
  { name: '8. 100/50 over 30', weights: [100, 50], picks: 30, expected: [20, 10] },
  { name: '8. 100/50 with the first down', weights: [100, 50], down: [0], picks: 30, expected: [0, 30] },
  { name: '9. 10/20 over 300', weights: [10, 20], picks: 300, expected: [100, 200] },
];

for (const c of cases) {
  test(`round-robin ${c.name}`, () => {
    for (const seed of [1, 2, 3]) {
      const b = new Balancer(upstream(), targets(...c.weights), { random: seeded(seed) });
      for (const i of c.down ?? []) b.setAddressStatus(b.addresses[i]!.key, false);
      assert.deepEqual(count(b, c.picks), c.expected);
    }
  });
}

test('no targets or all weight 0: getPeer gives undefined (503 NO_PEER)', () => {
  assert.equal(new Balancer(upstream(), []).getPeer(), undefined);
  assert.equal(new Balancer(upstream(), targets(0, 0)).getPeer(), undefined);
  assert.equal(new Balancer(upstream(), targets(0, 0)).isHealthy(), false);
});

test('the wheel is shuffled with the injected randomness', () => {
  const order = (seed: number) => {
    const b = new Balancer(upstream(), targets(1, 1, 1, 1, 1, 1), { random: seeded(seed) });
    return Array.from({ length: 6 }, () => b.getPeer()!.port).join(',');
  };
  assert.equal(order(7), order(7));
  const orders = new Set([1, 2, 3, 4, 5, 6, 7, 8].map(order));
  assert.ok(orders.size > 1, 'different seeds give different wheels');
});

test('7. weight back after an address returns: traffic resumes, the pointer keeps walking', () => {
  const b = new Balancer(upstream(), targets(100), { random: seeded(1) });
  assert.equal(b.getPeer()?.port, 9000);
  b.setAddressStatus('127.0.0.1:9000', false);
  assert.equal(b.getPeer(), undefined);
  b.setAddressStatus('127.0.0.1:9000', true);
  assert.equal(b.getPeer()?.port, 9000);
});

// balancers.lua updateStatus; 01-generic_spec.lua threshold table.
test('threshold is a strict >: 50 with 3 of 100 each', () => {
  const b = new Balancer(upstream(50), targets(100, 100, 100));
  assert.equal(b.isHealthy(), true);
  b.setAddressStatus(b.addresses[0]!.key, false);
  assert.equal(b.isHealthy(), true);
  b.setAddressStatus(b.addresses[1]!.key, false);
  assert.equal(b.isHealthy(), false);
  assert.equal(b.getPeer(), undefined, 'an unhealthy balancer gives no peer even with an address up');
  b.setAddressStatus(b.addresses[1]!.key, true);
  assert.equal(b.isHealthy(), true);
  const half = new Balancer(upstream(50), targets(10, 10));
  half.setAddressStatus(half.addresses[0]!.key, false);
  assert.equal(half.isHealthy(), false, '50 > 50 is false (balancers.lua updateStatus)');
  assert.equal(new Balancer(upstream(100), targets(10)).isHealthy(), false);
});

test('isAddressHealthy seeds availability at build (health survives reloads)', () => {
  const b = new Balancer(upstream(), targets(10, 10), {
    isAddressHealthy: (name, a) => !(name === 'u' && a.port === 9001),
  });
  assert.deepEqual(b.addresses.map((a) => a.available), [true, false]);
  assert.equal(b.unavailableWeight, 10);
  assert.deepEqual(count(b, 10), [10, 0]);
});

test('setAddressStatus on an unknown address is refused', () => {
  assert.equal(new Balancer(upstream(), targets(1)).setAddressStatus('10.0.0.1:1', false), false);
});

test('addresses are keyed by the canonical target form, the same key health checks use', () => {
  const written = ['10.0.0.1:81', '10.0.0.1', 'svc.test:443', '[::1]:9000', '010.0.0.2:5'];
  const b = new Balancer(upstream(), written.map((target, i) => ({ id: `t${i}`, target, weight: 1 })));
  assert.deepEqual(b.addresses.map((a) => a.key), [
    '10.0.0.1:81',
    '10.0.0.1:8000',
    'svc.test:443',
    '[0000:0000:0000:0000:0000:0000:0000:0001]:9000',
    '10.0.0.2:5',
  ]);
  assert.deepEqual(written.map((t) => addressOf(t).key), b.addresses.map((a) => a.key));
});
