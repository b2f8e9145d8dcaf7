import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Balancer, type BalancerTarget } from './balancer.ts';
import { continuumSize } from './consistent-hashing.ts';

const upstream = (slots: number) => ({ name: 'u', algorithm: 'consistent-hashing', slots, healthchecks: { threshold: 0 } });
const targets = (...weights: number[]): BalancerTarget[] =>
  weights.map((weight, i) => ({ id: `t${i}`, target: `10.0.0.${i + 1}:80`, weight }));
const keys = (n: number) => Array.from({ length: n }, (_, i) => String(i + 1));

function mapping(b: Balancer, list: readonly string[]): string[] {
  return list.map((hashValue) => b.getPeer({ hashValue })?.key ?? '-');
}

test('continuum size: slots below 1000 get 1000 (Kong tests use slots=10)', () => {
  assert.equal(continuumSize(10), 1000);
  assert.equal(continuumSize(999), 1000);
  assert.equal(continuumSize(1000), 1000);
  assert.equal(continuumSize(10_000), 10_000);
  assert.equal(continuumSize(65_536), 65_536);
});

// Kong's spec/01-unit/09-balancer/03-consistent_hashing_spec.lua:287-326: weights 10/5, continuum 1000, keys 1..1500.
test('16. weights 10/5 over keys 1..1500: 900-1100 to A, 450-550 to B; a key is sticky', () => {
  const b = new Balancer(upstream(10), targets(10, 5));
  const counts = new Map<string, number>();
  for (const k of mapping(b, keys(1500))) counts.set(k, (counts.get(k) ?? 0) + 1);
  const a = counts.get('10.0.0.1:80') ?? 0;
  const bb = counts.get('10.0.0.2:80') ?? 0;
  assert.equal(a + bb, 1500);
  assert.ok(a >= 900 && a <= 1100, `A got ${a}`);
  assert.ok(bb >= 450 && bb <= 550, `B got ${bb}`);
  const first = b.getPeer({ hashValue: '42' });
  for (let i = 0; i < 15; i++) assert.equal(b.getPeer({ hashValue: '42' }), first);
});

function moved(before: readonly string[], after: readonly string[]): number {
  let n = 0;
  for (let i = 0; i < before.length; i++) if (before[i] !== after[i]) n++;
  return n;
}

// Same spec file: continuum 5000, equal weights, 10000 keys.
test('17. stability: 5→6 targets moves <20% of 10000 keys, 5→8 <40%, 6→8 <25%', () => {
  const list = keys(10_000);
  const with5 = mapping(new Balancer(upstream(5000), targets(...Array<number>(5).fill(100))), list);
  const with6 = mapping(new Balancer(upstream(5000), targets(...Array<number>(6).fill(100))), list);
  const with8 = mapping(new Balancer(upstream(5000), targets(...Array<number>(8).fill(100))), list);
  assert.ok(moved(with5, with6) < 2000, `5→6 moved ${moved(with5, with6)}`);
  assert.ok(moved(with5, with8) < 4000, `5→8 moved ${moved(with5, with8)}`);
  assert.ok(moved(with6, with8) < 2500, `6→8 moved ${moved(with6, with8)}`);
  // Keys only ever move to the new targets.
  for (let i = 0; i < list.length; i++) {
    if (with5[i] !== with6[i]) assert.equal(with6[i], '10.0.0.6:80');
  }
});

test('distribution over 10k keys with 4 equal targets: each within ±25% of its share', () => {
  const b = new Balancer(upstream(10_000), targets(10, 10, 10, 10));
  const counts = new Map<string, number>();
  for (const k of mapping(b, keys(10_000).map((k) => `client-${k}`))) counts.set(k, (counts.get(k) ?? 0) + 1);
  assert.equal(counts.size, 4);
  for (const [key, n] of counts) assert.ok(n > 1875 && n < 3125, `${key} got ${n}`);
});

// Same spec file: weights 100/50 with A down: every key goes to B.
test('18. unhealthy addresses are skipped, other keys keep their mapping', () => {
  const b = new Balancer(upstream(10), targets(100, 50));
  const list = keys(160);
  const before = mapping(b, list);
  b.setAddressStatus('10.0.0.1:80', false);
  const after = mapping(b, list);
  assert.ok(after.every((k) => k === '10.0.0.2:80'));
  for (let i = 0; i < list.length; i++) if (before[i] === '10.0.0.2:80') assert.equal(after[i], '10.0.0.2:80');
  b.setAddressStatus('10.0.0.1:80', true);
  assert.deepEqual(mapping(b, list), before, 'back up: the original mapping returns');
  b.setAddressStatus('10.0.0.2:80', false);
  b.setAddressStatus('10.0.0.1:80', false);
  assert.equal(b.getPeer({ hashValue: '1' }), undefined);
});

test('11. no hash value hashes "": every request to one target; weight 0 never picked', () => {
  const b = new Balancer(upstream(10), targets(10, 10, 0));
  const first = b.getPeer({});
  assert.ok(first);
  for (let i = 0; i < 20; i++) assert.equal(b.getPeer({}), first);
  assert.equal(b.getPeer({ hashValue: '' }), first);
  const picked = new Set(mapping(b, keys(2000)));
  assert.ok(!picked.has('10.0.0.3:80'));
});
