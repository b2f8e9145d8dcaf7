// Across nodes: an operator healthy/unhealthy call on one gateway node reaches every node sharing
// the Redis (docs/gateway-health.md, "Workers and nodes"); each applies it and resets its own counters.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { LocalHealth } from '../../src/health/local-health.ts';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { listenOnLoopback } from '@signet/kit/testing';
import { HEALTH_CHANNEL, RedisHealthBus } from '../../src/cluster/redis-health-bus.ts';
import { healthchecks, snapshot, target, upstream } from './health.fixture.ts';
import { startRedisServer } from './redis-server.ts';

const KEY = '10.0.0.1:80';

test('two gateway nodes share operator events over a real redis-server', async (t) => {
  const redis = await startRedisServer();
  t.after(() => redis.stop());
  const busA = new RedisHealthBus(redis.url, { nodeId: 'node-a' });
  const busB = new RedisHealthBus(redis.url, { nodeId: 'node-b' });
  const a = new LocalHealth({ bus: busA });
  const b = new LocalHealth({ bus: busB });
  t.after(async () => {
    await a.close();
    await b.close();
  });
  await Promise.all([busA.ready(), busB.ready()]);

  const up = upstream('svc', healthchecks({ passive: { unhealthy: { http_failures: 3 } } }));
  const snap = snapshot([up], [target(up, KEY)]);
  a.load(snap);
  b.load(snap);

  // Node B has counted two failures of its own (health is per node: A has seen none).
  b.reportPassive('svc', KEY, 500);
  b.reportPassive('svc', KEY, 500);
  assert.equal(a.addressHealth('svc', KEY), 'healthy');

  a.setStatus('svc', [KEY], false);
  assert.equal(a.isAddressHealthy('svc', KEY), false, 'applied on the calling node at once');
  await pollUntil(() => !b.isAddressHealthy('svc', KEY), { what: 'node B applies it', timeoutMs: 5000 });

  b.setStatus('svc', [KEY], true);
  await pollUntil(() => a.isAddressHealthy('svc', KEY), { what: 'node A applies it', timeoutMs: 5000 });
  // Both reset: B's earlier failures are gone, so one more 500 is not enough on either node.
  for (const node of [a, b]) {
    assert.deepEqual(node.registry.checker('svc')!.state(KEY), { health: 'healthy', counters: { success: 0, http: 0, tcp: 0, timeout: 0 } });
  }
});

test('events of other upstreams or garbage on the channel are ignored', async (t) => {
  const redis = await startRedisServer();
  t.after(() => redis.stop());
  const bus = new RedisHealthBus(redis.url, { nodeId: 'n1' });
  const other = new RedisHealthBus(redis.url, { nodeId: 'n2' });
  const node = new LocalHealth({ bus });
  t.after(async () => {
    await node.close();
    await other.close();
  });
  await Promise.all([bus.ready(), other.ready()]);
  const up = upstream('svc', healthchecks({ passive: { unhealthy: { http_failures: 1 } } }));
  node.load(snapshot([up], [target(up, KEY)]));
  const raw = new Redis(redis.url);
  t.after(() => raw.quit());
  // Delivered in order on one channel: when the valid event lands, the rest was seen and dropped.
  await raw.publish(HEALTH_CHANNEL, 'not json');
  await raw.publish(HEALTH_CHANNEL, JSON.stringify({ type: 'set_status', upstream: 'svc', keys: 'x', healthy: false, origin: 'n9' }));
  other.publish({ type: 'set_status', upstream: 'elsewhere', keys: [KEY], healthy: false });
  assert.equal(node.isAddressHealthy('svc', KEY), true);
  other.publish({ type: 'set_status', upstream: 'svc', keys: [KEY], healthy: false });
  await pollUntil(() => !node.isAddressHealthy('svc', KEY), { what: 'the valid event', timeoutMs: 5000 });
});

test('an unreachable Redis never blocks shutdown: close() returns at once', async () => {
  const server = createServer();
  const port = await listenOnLoopback(server);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const errors: Error[] = [];
  const bus = new RedisHealthBus(`redis://127.0.0.1:${port}`, { onError: (e) => errors.push(e) });
  const node = new LocalHealth({ bus });
  node.setStatus('svc', [KEY], false); // queued for a Redis that never answers
  await pollUntil(() => errors.length > 0, { what: 'a connection error reported', timeoutMs: 5000 });
  const started = Date.now();
  await node.close();
  assert.ok(Date.now() - started < 1000, 'close did not wait for Redis');
});
