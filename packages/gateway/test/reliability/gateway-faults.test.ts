// The real `signet-gateway start` process in front of upstreams that fail on purpose:
// refusing, resetting mid-response, hanging, slow and flapping targets; every loop is bounded by
// a request count. The killed-target-under-load figure is in target-killed.test.ts.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { FaultUpstream } from './fault-upstream.ts';
import { faultKongYml } from './fault-kong-yml.ts';

async function upstreams(t: TestContext, n: number): Promise<FaultUpstream[]> {
  const list: FaultUpstream[] = [];
  for (let i = 0; i < n; i++) list.push(await FaultUpstream.start());
  t.after(async () => {
    for (const u of list) await u.close();
  });
  return list;
}

type Outcome = { status: number; body: string } | { error: string };

async function get(url: string): Promise<Outcome> {
  try {
    const res = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
    return { status: res.statusCode, body: await res.body.text() };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

async function getMany(url: string, n: number): Promise<Outcome[]> {
  const out: Outcome[] = [];
  for (let i = 0; i < n; i++) out.push(await get(`${url}/r${i}`));
  return out;
}

const statuses = (outcomes: readonly Outcome[]) => outcomes.map((o) => ('status' in o ? o.status : 'error'));

test('a refusing target: retried on the healthy one, the client sees 20 × 200', async (t) => {
  const [bad, good] = (await upstreams(t, 2)) as [FaultUpstream, FaultUpstream];
  await bad.refuse();
  const g = await startGatewayProcess(t, faultKongYml([bad.target, good.target]));
  const out = await getMany(g.proxy, 20);
  assert.deepEqual(statuses(out), Array(20).fill(200));
  assert.ok(out.every((o) => 'body' in o && /^ok \/r\d+$/.test(o.body)));
});

test('a refusing target without retries: Kong\'s 502 in JSON, never a hang or a crash', async (t) => {
  const [bad] = (await upstreams(t, 1)) as [FaultUpstream];
  await bad.refuse();
  const g = await startGatewayProcess(t, faultKongYml([bad.target], { retries: 0 }));
  const out = await getMany(g.proxy, 5);
  assert.deepEqual(statuses(out), Array(5).fill(502));
  const body = JSON.parse((out[0] as { body: string }).body) as { message: string };
  assert.equal(body.message, 'An invalid response was received from the upstream server');
});

test('a target that resets mid-response: the client never gets a complete-looking wrong answer', async (t) => {
  const [bad, good] = (await upstreams(t, 2)) as [FaultUpstream, FaultUpstream];
  bad.mode = 'reset-mid-response';
  const g = await startGatewayProcess(t, faultKongYml([bad.target, good.target], { retries: 0 }));
  const out = await getMany(g.proxy, 20);
  const ok = out.filter((o) => 'status' in o && o.status === 200);
  // Every 200 the client reads whole is the good target's exact body; the reset ones are
  // either a 502 (reset seen before the head was passed on) or an aborted body.
  for (const o of ok) assert.match((o as { body: string }).body, /^ok \/r\d+$/);
  const failed = out.length - ok.length;
  assert.equal(failed, [...bad.seen.values()].reduce((a, b) => a + b, 0), 'each request the resetting target took failed, and no other');
  assert.ok(failed > 0, 'the resetting target got no traffic');
  t.diagnostic(`reset mid-response: ${failed} of 20 failed client-side as ${JSON.stringify([...new Set(statuses(out).filter((s) => s !== 200))])}`);
});

test('a hanging target: 504 after read_timeout without retries; with retries the client sees only 200s', async (t) => {
  const [bad, good] = (await upstreams(t, 2)) as [FaultUpstream, FaultUpstream];
  bad.mode = 'hang';
  const noRetry = await startGatewayProcess(t, faultKongYml([bad.target], { retries: 0, readTimeoutMs: 300 }));
  const started = performance.now();
  assert.deepEqual(statuses(await getMany(noRetry.proxy, 2)), [504, 504]);
  // Bounded: two 300 ms timeouts, not the client's 10 s.
  assert.ok(performance.now() - started < 5000);
  const retry = await startGatewayProcess(t, faultKongYml([bad.target, good.target], { readTimeoutMs: 300 }));
  assert.deepEqual(statuses(await getMany(retry.proxy, 6)), Array(6).fill(200));
});

test('a slow target: answers inside read_timeout pass, answers after it are 504', async (t) => {
  const [slow] = (await upstreams(t, 1)) as [FaultUpstream];
  slow.mode = 'slow';
  slow.slowMs = 150;
  const g = await startGatewayProcess(t, faultKongYml([slow.target], { retries: 0, readTimeoutMs: 1000 }));
  assert.deepEqual(statuses(await getMany(g.proxy, 3)), [200, 200, 200]);
  slow.slowMs = 2000;
  assert.deepEqual(statuses(await getMany(g.proxy, 2)), [504, 504]);
});

test('a flapping target (down/up 4 times) behind passive checks and retries: the client sees only 200s', async (t) => {
  const [flap, steady] = (await upstreams(t, 2)) as [FaultUpstream, FaultUpstream];
  const g = await startGatewayProcess(t, faultKongYml([flap.target, steady.target], {
    healthchecks: { active: { healthy: { interval: 1, successes: 1 }, unhealthy: { interval: 1, tcp_failures: 1 } }, passive: { unhealthy: { tcp_failures: 2 } } },
  }));
  const all: Outcome[] = [];
  for (let round = 0; round < 4; round++) {
    await flap.refuse();
    all.push(...(await getMany(g.proxy, 15)));
    await flap.accept();
    all.push(...(await getMany(g.proxy, 15)));
  }
  assert.deepEqual(statuses(all), Array(120).fill(200));
});
