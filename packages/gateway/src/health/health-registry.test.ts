import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HealthRegistry } from './health-registry.ts';
import { healthchecksOn } from './checks-on.ts';
import { healthchecks, kongDefaultHealthchecks, snapshot, target, upstream } from '../../test/health/health.fixture.ts';

const ON = healthchecks({ passive: { unhealthy: { http_failures: 1 } } });

test('healthcheckers.lua: checks are on only with an active interval or a passive unhealthy threshold', () => {
  assert.equal(healthchecksOn(kongDefaultHealthchecks()), false);
  assert.equal(healthchecksOn(healthchecks({ active: { healthy: { interval: 5 } } })), true);
  assert.equal(healthchecksOn(healthchecks({ active: { unhealthy: { interval: 5 } } })), true);
  assert.equal(healthchecksOn(healthchecks({ passive: { unhealthy: { tcp_failures: 1 } } })), true);
  assert.equal(healthchecksOn(healthchecks({ passive: { unhealthy: { timeouts: 1 } } })), true);
  assert.equal(healthchecksOn(healthchecks({ passive: { unhealthy: { http_failures: 1 } } })), true);
  // Counts alone do not switch checks on: a passive success count or active thresholds.
  assert.equal(healthchecksOn(healthchecks({ passive: { healthy: { successes: 3 } } })), false);
  assert.equal(healthchecksOn(healthchecks({ active: { unhealthy: { http_failures: 3 }, healthy: { successes: 3 } } })), false);
  // grpc/grpcs checks are implemented here (probe-grpc.ts), unlike lua-resty-healthcheck 3.1.
  assert.equal(healthchecksOn(healthchecks({ active: { type: 'grpc', healthy: { interval: 5 } } })), true);
  assert.equal(healthchecksOn(healthchecks({ active: { type: 'grpcs' }, passive: { type: 'grpc', unhealthy: { tcp_failures: 1 } } })), true);
});

test('Kong 01-healthchecks_spec: checks off → no checker, every report a no-op, every address up', () => {
  const up = upstream('off');
  const reg = new HealthRegistry();
  reg.load(snapshot([up], [target(up, '10.0.0.1:80')]));
  assert.equal(reg.checker('off'), undefined);
  for (let i = 0; i < 10; i++) reg.report('off', '10.0.0.1:80', 500, 'passive');
  assert.equal(reg.isAddressHealthy('off', '10.0.0.1:80'), true);
  assert.equal(reg.setStatus('off', '10.0.0.1:80', false), false);
});

test('weight-0 targets are not checked (healthcheckers.lua)', () => {
  const up = upstream('w', ON);
  const reg = new HealthRegistry();
  reg.load(snapshot([up], [target(up, '10.0.0.1:80', 10), target(up, '10.0.0.2:80', 0)]));
  const checker = reg.checker('w')!;
  assert.deepEqual([...checker.entries()].map((e) => e.address.key), ['10.0.0.1:80']);
  reg.report('w', '10.0.0.2:80', 500, 'passive');
  assert.equal(reg.isAddressHealthy('w', '10.0.0.2:80'), true);
});

test('state changes reach subscribers with the upstream and address', () => {
  const up = upstream('s', ON);
  const reg = new HealthRegistry();
  reg.load(snapshot([up], [target(up, 'example.com')]));
  const seen: string[] = [];
  const off = reg.onChange((u, a, h) => seen.push(`${u} ${a.key} ${a.hostname} ${h}`));
  reg.report('s', 'example.com:8000', 500, 'passive');
  off();
  reg.setStatus('s', 'example.com:8000', true);
  assert.deepEqual(seen, ['s example.com:8000 example.com unhealthy']);
});

test('a reload keeps the state of unchanged (upstream, address) pairs, even with new checks', () => {
  const up = upstream('r', ON);
  const reg = new HealthRegistry();
  reg.load(snapshot([up], [target(up, '10.0.0.1:80'), target(up, '10.0.0.2:80')]));
  reg.report('r', '10.0.0.1:80', 500, 'passive');
  const up2 = upstream('r', healthchecks({ passive: { unhealthy: { http_failures: 2 } } }));
  reg.load(snapshot([up2], [target(up2, '10.0.0.1:80'), target(up2, '10.0.0.3:80')]));
  assert.equal(reg.isAddressHealthy('r', '10.0.0.1:80'), false);
  assert.equal(reg.checker('r')!.upstream.id, up2.id);
  assert.equal(reg.isAddressHealthy('r', '10.0.0.3:80'), true);
});

test('Kong 01-healthchecks_spec: a removed target finds its state again within 300 s, not after', () => {
  let now = 0;
  const reg = new HealthRegistry({ now: () => now });
  const readd = (): void => {
    // Deleted and re-added: a new upstream id, the same name and target.
    const up = upstream('d', ON);
    reg.load(snapshot([up], [target(up, '10.0.0.1:80')]));
  };
  readd();
  reg.setStatus('d', '10.0.0.1:80', false);
  reg.load(snapshot([], []));
  now = 299_999;
  readd();
  assert.equal(reg.isAddressHealthy('d', '10.0.0.1:80'), false);
  reg.load(snapshot([], []));
  now += 300_000;
  readd();
  assert.equal(reg.isAddressHealthy('d', '10.0.0.1:80'), true);
});

test('Kong 01-healthchecks_spec: the same IP under two host names is two health entries', () => {
  const up = upstream('h', ON);
  const reg = new HealthRegistry();
  reg.load(snapshot([up], [target(up, 'localhost:8080'), target(up, '127.0.0.1:8080')]));
  reg.report('h', 'localhost:8080', 500, 'passive');
  assert.equal(reg.isAddressHealthy('h', 'localhost:8080'), false);
  assert.equal(reg.isAddressHealthy('h', '127.0.0.1:8080'), true);
  assert.equal(reg.checker('h')!.state('localhost:8080')!.health, 'unhealthy');
});
