import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Balancer } from './balancer.ts';
import { Latency } from './latency.ts';
import { simulateLoad } from './simulate-load.fixture.ts';

const upstream = (algorithm: string) => ({ name: 'u', algorithm, healthchecks: { threshold: 0 } });
const targets = (...weights: number[]) => weights.map((weight, i) => ({ id: `t${i}`, target: `10.0.0.${i + 1}:80`, weight }));

test('EWMA: the first sample replaces 0, later ones decay with exp(-Δt/10 s)', () => {
  const clock = { now: 0 };
  const b = new Balancer(upstream('latency'), targets(1), { now: () => clock.now });
  const lat = new Latency(b.addresses, () => clock.now);
  const a = b.addresses[0]!;
  lat.release(a, 100);
  assert.equal(lat.ewma(a), 100);
  clock.now = 10_000;
  lat.release(a, 200);
  const w = Math.exp(-1);
  assert.ok(Math.abs(lat.ewma(a) - (100 * w + 200 * (1 - w))) < 1e-9);
  lat.release(a, undefined);
  assert.ok(Math.abs(lat.ewma(a) - (100 * w + 200 * (1 - w))) < 1e-9, 'no response: no sample');
});

test('pick: lowest ewma/weight among available, not-failed addresses', () => {
  const clock = { now: 0 };
  const b = new Balancer(upstream('latency'), targets(100, 100), { now: () => clock.now });
  const [fast, slow] = b.addresses as [typeof b.addresses[0] & object, typeof b.addresses[0] & object];
  b.release(fast, 10);
  b.release(slow, 50);
  assert.equal(b.getPeer(), fast);
  assert.equal(b.getPeer({ failed: new Set([fast]) }), slow);
  assert.equal(b.getPeer({ failed: new Set([fast, slow]) }), undefined, 'no address left: no peer');
  b.setAddressStatus(fast.key, false);
  assert.equal(b.getPeer(), slow);
});

// Kong's 10-balancer/07-latency_spec.lua, on virtual time: 100 ms vs 1000 ms servers, weight 100
// each, bursts of 6, 8 and 86 clients. Kong asserts fast/slow > 10.
test('21. latency: 100 ms vs 1000 ms, bursts of 6, 8 and 86 clients: fast/slow > 10', () => {
  const clock = { now: 0 };
  const b = new Balancer(upstream('latency'), targets(100, 100), { now: () => clock.now });
  const bursts = [6, 8, 86].map((clients) => ({ clients, durationMs: 3000 }));
  const [fast, slow] = simulateLoad(b, clock, [100, 1000], bursts) as [number, number];
  assert.ok(fast / Math.max(slow, 1) > 10, `fast ${fast} slow ${slow}`);
});

// Kong's 10-balancer/02-least-connections_spec.lua, on virtual time: 100 ms and 200 ms servers, equal weights, 100 concurrent
// clients for 1.5 s. Kong asserts the ok-count ratio fast/slow ≈ 2 (±1).
test('20. least-connections: 100 ms vs 200 ms, 100 clients for 1.5 s: fast/slow ≈ 2 (±1)', () => {
  const clock = { now: 0 };
  const b = new Balancer(upstream('least-connections'), targets(10, 10), { now: () => clock.now });
  const [fast, slow] = simulateLoad(b, clock, [100, 200], [{ clients: 100, durationMs: 1500 }]) as [number, number];
  const ratio = fast / slow;
  assert.ok(ratio >= 1 && ratio <= 3, `fast ${fast} slow ${slow}`);
  // Round-robin over the same load splits evenly: the ratio is the algorithm's doing.
  const rr = new Balancer(upstream('round-robin'), targets(10, 10), { random: () => 0.5 });
  const [rf, rs] = simulateLoad(rr, { now: 0 }, [100, 200], [{ clients: 100, durationMs: 1500 }]) as [number, number];
  assert.ok(ratio > rf / rs, `least-connections ${ratio} vs round-robin ${rf / rs}`);
});
