// Health is per node and shared by its workers; operator calls reach every node sharing a Redis
// (docs/gateway-health.md, "Workers and nodes"). Real gateway processes, a real
// redis-server started here.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { SwitchableUpstream } from './switchable-upstream.ts';
import { send, sendMany, startGatewayProcess, targetHealth, type GatewayProcess } from './gateway-process.ts';
import { healthKongYml, UPSTREAM } from './kong-yml.fixture.ts';
import { startRedisServer } from './redis-server.ts';

async function upstreams(t: TestContext, n: number): Promise<SwitchableUpstream[]> {
  const list: SwitchableUpstream[] = [];
  for (let i = 0; i < n; i++) list.push(await SwitchableUpstream.start());
  t.after(async () => {
    for (const s of list) await s.close();
  });
  return list;
}

function untilHealth(g: GatewayProcess, target: string, health: string): Promise<true> {
  return pollUntil(async () => (await targetHealth(g.admin, UPSTREAM))[target] === health || undefined, {
    what: `${target} ${health} on ${g.admin}`,
    timeoutMs: 10_000,
  });
}

/** Requests on fresh connections (spread over the workers) until one reaches `server`. */
function untilReached(g: GatewayProcess, server: SwitchableUpstream): Promise<true> {
  const before = server.answered(200, '/traffic');
  return pollUntil(async () => {
    await send(`${g.proxy}/traffic`, 'GET', true);
    return server.answered(200, '/traffic') > before || undefined;
  }, { what: `traffic to ${server.target}`, timeoutMs: 10_000 });
}

test('--workers 2: passive failures counted once per node; an operator call applies in every worker', async (t) => {
  const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
  const g = await startGatewayProcess(t, healthKongYml([s1, s2], { healthchecks: { passive: { unhealthy: { http_failures: 2 } } } }), { workers: 2 });
  s2.mode = 'fail';
  await pollUntil(async () => {
    await send(`${g.proxy}/traffic`, 'GET', true);
    return (await targetHealth(g.admin, UPSTREAM))[s2.target] === 'UNHEALTHY' || undefined;
  }, { what: 'passive ejection', timeoutMs: 10_000 });
  // Both workers fed the one counter of the node: ejection after 2 failures, not 2 per worker
  // (a request already routed when the state changed may add one more).
  assert.ok(s2.answered(500) >= 2 && s2.answered(500) <= 3, `server 2 failures: ${s2.answered(500)}`);
  const failures = s2.answered(500);
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 20, true), Array(20).fill(200));
  assert.equal(s2.answered(500), failures, 'no worker sends to the ejected target');

  s2.mode = 'ok';
  assert.equal((await send(`${g.admin}/upstreams/${UPSTREAM}/targets/${s2.target}/healthy`, 'PUT')).status, 204);
  await untilReached(g, s2);
  const before = [s1.answered(200), s2.answered(200)] as const;
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 20, true), Array(20).fill(200));
  assert.ok(s1.answered(200) > before[0] && s2.answered(200) > before[1], 'both targets serve again');
});

test('REDIS_URL: an operator call on one node resets the target on the other node too', async (t) => {
  const redis = await startRedisServer();
  t.after(() => redis.stop());
  const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
  const yml = healthKongYml([s1, s2], { healthchecks: { passive: { unhealthy: { http_failures: 1 } } } });
  const env = { REDIS_URL: redis.url };
  const a = await startGatewayProcess(t, yml, { env });
  const b = await startGatewayProcess(t, yml, { env, workers: 2 });
  // Health is per node: node A's view stays its own until the operator speaks.
  assert.equal((await send(`${a.admin}/upstreams/${UPSTREAM}/targets/${s2.target}/unhealthy`, 'PUT')).status, 204);
  assert.equal((await targetHealth(a.admin, UPSTREAM))[s2.target], 'UNHEALTHY');
  await untilHealth(b, s2.target, 'UNHEALTHY');
  const s2Hits = s2.answered(200);
  assert.deepEqual(await sendMany(`${b.proxy}/traffic`, 10, true), Array(10).fill(200));
  assert.equal(s2.answered(200), s2Hits, "node B's workers skip the target");

  assert.equal((await send(`${b.admin}/upstreams/${UPSTREAM}/targets/${s2.target}/healthy`, 'POST')).status, 204);
  await untilHealth(a, s2.target, 'HEALTHY');
  await untilReached(a, s2);
  await untilReached(b, s2);
});
