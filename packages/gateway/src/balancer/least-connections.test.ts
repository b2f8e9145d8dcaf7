import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from './address.ts';
import { Balancer } from './balancer.ts';

const upstream = { name: 'u', algorithm: 'least-connections', healthchecks: { threshold: 0 } };
const targets = (...weights: number[]) => weights.map((weight, i) => ({ id: `t${i}`, target: `10.0.0.${i + 1}:80`, weight }));

function tally(picks: (Address | undefined)[]): number[] {
  const out = [0, 0, 0];
  for (const a of picks) if (a) out[Number(a.host.split('.')[3]) - 1]!++;
  return out;
}

// Kong's spec/01-unit/09-balancer/02-least_connections_spec.lua.
test('19. weights 20/50: first picks 50, 50, 20; 70 picks without release are exactly 20/50', () => {
  const b = new Balancer(upstream, targets(20, 50));
  const picks = Array.from({ length: 70 }, () => b.getPeer());
  assert.deepEqual(picks.slice(0, 3).map((a) => a?.weight), [50, 50, 20]);
  assert.deepEqual(tally(picks).slice(0, 2), [20, 50]);
});

test('19. with 50 down: 70/0 to 20; 20 re-enabled after 70 picks on 50: totals 40/100', () => {
  const b = new Balancer(upstream, targets(20, 50));
  b.setAddressStatus('10.0.0.2:80', false);
  assert.deepEqual(tally(Array.from({ length: 70 }, () => b.getPeer())).slice(0, 2), [70, 0]);

  const c = new Balancer(upstream, targets(20, 50));
  c.setAddressStatus('10.0.0.1:80', false);
  const first = Array.from({ length: 70 }, () => c.getPeer());
  assert.deepEqual(tally(first).slice(0, 2), [0, 70]);
  c.setAddressStatus('10.0.0.1:80', true);
  const second = Array.from({ length: 70 }, () => c.getPeer());
  assert.deepEqual(tally([...first, ...second]).slice(0, 2), [40, 100]);
});

test('19. retries skip failed addresses: 3 distinct over 3, then the list resets (6 retries: 2 each)', () => {
  const b = new Balancer(upstream, targets(10, 10, 10));
  const failed = new Set<Address>();
  const picks: Address[] = [];
  for (let i = 0; i < 6; i++) {
    const a = b.getPeer({ failed })!;
    picks.push(a);
    // The attempt failed: released (connection closed) and remembered for this request.
    b.release(a);
    failed.add(a);
    if (i === 2) assert.equal(new Set(picks).size, 3, 'the first 3 attempts hit 3 distinct addresses');
  }
  assert.deepEqual(tally(picks), [2, 2, 2]);
});

test('release lowers the count: a released address is picked again', () => {
  const b = new Balancer(upstream, targets(10, 10));
  const a = b.getPeer()!;
  b.release(a);
  assert.equal(b.getPeer(), a);
  assert.equal(new Balancer(upstream, targets(0, 0)).getPeer(), undefined);
});
