// Passive health checks through the real gateway process (Kong's 01-healthchecks_spec.lua)
// with Kong's exact counts, plus the health admin endpoints and a POST /config reload.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { connect } from 'node:net';
import { request } from 'undici';
import { SwitchableUpstream } from './switchable-upstream.ts';
import { send, sendMany, startGatewayProcess, targetHealth } from './gateway-process.ts';
import { healthKongYml, UPSTREAM } from './kong-yml.fixture.ts';

async function upstreams(t: TestContext, n: number): Promise<SwitchableUpstream[]> {
  const list: SwitchableUpstream[] = [];
  for (let i = 0; i < n; i++) list.push(await SwitchableUpstream.start());
  t.after(async () => {
    for (const s of list) await s.close();
  });
  return list;
}

const count = (statuses: readonly number[], status: number): number => statuses.filter((s) => s === status).length;

test('§6.22: checks off (Kong defaults): a failing target keeps getting its share, nothing is ejected', async (t) => {
  const [s1] = (await upstreams(t, 1)) as [SwitchableUpstream];
  const g = await startGatewayProcess(t, healthKongYml([s1], { healthchecks: {} }));
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 10), Array(10).fill(200));
  s1.mode = 'fail';
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 10), Array(10).fill(500));
  assert.deepEqual([s1.answered(200), s1.answered(500)], [10, 10]);
  assert.equal((await targetHealth(g.admin, UPSTREAM))[s1.target], 'HEALTHCHECKS_OFF');
});

test('§6.27: a timeout without retries answers 504 and still counts: the next request gets 503', async (t) => {
  const [s1] = (await upstreams(t, 1)) as [SwitchableUpstream];
  s1.mode = 'hang';
  const g = await startGatewayProcess(t, healthKongYml([s1], { retries: 0, readTimeoutMs: 300, healthchecks: { passive: { unhealthy: { timeouts: 1 } } } }));
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 2), [504, 503]);
  assert.equal(s1.answered(0), 1);
});

for (const n of [1, 2, 3]) {
  test(`§6.23: passive http_failures ${n}: the client sees exactly ${n} 500s, then server 2 gets nothing`, async (t) => {
    const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
    const g = await startGatewayProcess(t, healthKongYml([s1, s2], { healthchecks: { passive: { unhealthy: { http_failures: n } } } }));
    const first = await sendMany(`${g.proxy}/traffic`, 10);
    assert.deepEqual([count(first, 200), s1.answered(200), s2.answered(200)], [10, 5, 5]);
    s2.mode = 'fail';
    const second = await sendMany(`${g.proxy}/traffic`, 10);
    assert.equal(count(second, 500), n);
    assert.equal(second.at(-1), 200);
    assert.deepEqual([s1.answered(200), s2.answered(200), s2.answered(500)], [15 - n, 5, n]);
    assert.equal((await targetHealth(g.admin, UPSTREAM))[s2.target], 'UNHEALTHY');
  });
}

test('§6.26: a passive timeout is retried on the other target and ejects the hanging one', async (t) => {
  const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
  const g = await startGatewayProcess(t, healthKongYml([s1, s2], { readTimeoutMs: 300, healthchecks: { passive: { unhealthy: { timeouts: 1 } } } }));
  assert.equal(count(await sendMany(`${g.proxy}/traffic`, 10), 200), 10);
  s2.mode = 'hang';
  assert.equal(count(await sendMany(`${g.proxy}/traffic`, 10), 200), 10);
  assert.deepEqual([s1.answered(200), s2.answered(200), s2.answered(0)], [15, 5, 1]);
  assert.equal((await targetHealth(g.admin, UPSTREAM))[s2.target], 'UNHEALTHY');
});

test('§6.28: tcp_failures 1 against a refusing target: ejected on the first retried attempt, then 503', async (t) => {
  const [s1] = (await upstreams(t, 1)) as [SwitchableUpstream];
  await s1.refuse();
  const g = await startGatewayProcess(t, healthKongYml([s1], { healthchecks: { passive: { unhealthy: { tcp_failures: 1 } } } }));
  const statuses = await sendMany(`${g.proxy}/traffic`, 10);
  assert.deepEqual(statuses, Array(10).fill(503));
  const body = JSON.parse((await send(`${g.proxy}/traffic`)).body) as { message: string };
  assert.equal(body.message, 'failure to get a peer from the ring-balancer');
  assert.equal((await targetHealth(g.admin, UPSTREAM))[s1.target], 'UNHEALTHY');
});

test('§6.38, §6.39, §6.33: operator PUT/POST healthy|unhealthy, threshold 503, state kept over POST /config', async (t) => {
  const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
  const hc = { passive: { unhealthy: { http_failures: 1 } } };
  const g = await startGatewayProcess(t, healthKongYml([s1, s2], { healthchecks: hc }));
  const base = `${g.admin}/upstreams/${UPSTREAM}/targets`;
  assert.equal((await send(`${base}/${s2.target}/unhealthy`, 'PUT')).status, 204);
  await sendMany(`${g.proxy}/traffic`, 10);
  assert.deepEqual([s1.answered(200), s2.answered(200)], [10, 0]);
  // The spec's POST form, on the per-address path.
  assert.equal((await send(`${base}/${s2.target}/${s2.target}/healthy`, 'POST')).status, 204);
  await sendMany(`${g.proxy}/traffic`, 10);
  assert.deepEqual([s1.answered(200), s2.answered(200)], [15, 5]);

  // A reload with the same upstream and targets (and a new route) keeps s2 out.
  assert.equal((await send(`${base}/${s2.target}/unhealthy`, 'PUT')).status, 204);
  const yml = healthKongYml([s1, s2], { healthchecks: hc }).replace('        strip_path: false\n', '        strip_path: false\n      - name: extra\n        paths: ["/extra"]\n');
  const reload = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: yml });
  assert.equal(reload.statusCode, 201, await reload.body.text());
  assert.equal((await targetHealth(g.admin, UPSTREAM))[s2.target], 'UNHEALTHY');
  await sendMany(`${g.proxy}/traffic`, 6);
  assert.deepEqual([s1.answered(200), s2.answered(200)], [21, 5]);

  // Threshold 50 with one of two equal targets down: 50 > 50 is false, every request 503.
  const strict = healthKongYml([s1, s2], { healthchecks: { ...hc, threshold: 50 } });
  const reload2 = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: strict });
  assert.equal(reload2.statusCode, 201, await reload2.body.text());
  await pollUntil(async () => (await send(`${g.proxy}/traffic`)).status === 503, { what: 'threshold 503', timeoutMs: 5000 });
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 5), Array(5).fill(503));
  const balancer = JSON.parse((await send(`${g.admin}/upstreams/${UPSTREAM}/health?balancer_health=1`)).body) as { data: { balancer_health: string } };
  assert.equal(balancer.data.balancer_health, 'UNHEALTHY');

  // 400 with checks off, 404 for an unknown target.
  assert.equal((await send(`${base}/127.0.0.1:1/healthy`, 'PUT')).status, 404);
  const off = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: healthKongYml([s1, s2], { healthchecks: {} }) });
  assert.equal(off.statusCode, 201, await off.body.text());
  const noChecker = await send(`${base}/${s2.target}/healthy`, 'PUT');
  assert.deepEqual([noChecker.status, JSON.parse(noChecker.body)], [400, { message: `no healthchecker found for ${UPSTREAM}` }]);
});

test('a client that stalls its request body gets 408 and costs the targets nothing: passive timeouts count the upstream\'s stalls only', async (t) => {
  // A review: four clients sending 5 of 1,000 announced bytes and then nothing made the write
  // timer fire, which was reported as the target timing out; both targets were ejected and
  // every other client got 503. nginx reads the body before it picks a peer and answers 408.
  const [s1, s2] = (await upstreams(t, 2)) as [SwitchableUpstream, SwitchableUpstream];
  const g = await startGatewayProcess(t, healthKongYml([s1, s2], { writeTimeoutMs: 300, healthchecks: { passive: { unhealthy: { timeouts: 2 } } } }));
  const { hostname, port } = new URL(g.proxy);
  const stalled = async (): Promise<string> => {
    const socket = connect(Number(port), hostname);
    t.after(() => socket.destroy());
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.write(`POST /traffic HTTP/1.1\r\nHost: ${hostname}\r\nContent-Length: 1000\r\n\r\nfirst`);
    await pollUntil(() => answer.includes('\r\n\r\n') || socket.destroyed, { timeoutMs: 15_000, what: 'the answer to a stalled body' });
    return answer;
  };
  const answers = await Promise.all([stalled(), stalled(), stalled(), stalled()]);
  for (const answer of answers) {
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /"message":\s*"Request timeout"/);
  }
  const health = await targetHealth(g.admin, UPSTREAM);
  assert.deepEqual([health[s1.target], health[s2.target]], ['HEALTHY', 'HEALTHY']);
  assert.deepEqual(await sendMany(`${g.proxy}/traffic`, 4), [200, 200, 200, 200]);
  // An upstream that stalls is still the target's fault: a hanging target that never reads a
  // body it was sent whole times out on the read timer, as before (§6.26 above).
});
