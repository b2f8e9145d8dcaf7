// The whole system as `npm start` runs it keeps serving when an esign instance dies: the
// supervisor restarts it with backoff while the gateway routes around it and takes it back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { currentPid, integratorOf, targetHealth } from './support/integrator.ts';
import { startSdkLoad, type LoadResult } from './support/sdk-load.ts';
import { startSystem } from './support/start-system.ts';

// Two loops, each a call every ~150 ms: ~12 calls/s, under esign's burst limit (500 per 30 s).
const LOOPS = 2;
const PACE_MS = 150;
const summary = (results: readonly LoadResult[]) => JSON.stringify(results.filter((r) => !r.ok));

test('failover under `npm start`: kill -9 of an esign instance under steady SDK load, then the same kill five times in a row', async (t) => {
  // A faster backoff than the default (1 s doubling to 30 s; its arithmetic is unit-tested) keeps
  // the six crashes below within seconds: 0.2 s doubling to 1.6 s (the cap from the fourth on).
  // Each restarted instance is killed only once it answers, so the waits below are for states,
  // and the backoff's length only sets how long the crash loop (and the load through it) lasts.
  const system = await startSystem(t, { RESTART_BACKOFF_INITIAL_MS: '200', RESTART_BACKOFF_MAX_MS: '1600' });
  const integrator = await integratorOf(t, system, 'failover@example.com');
  const load = startSdkLoad(t, system.caPath, { ...integrator, loops: LOOPS, paceMs: PACE_MS });
  await pollUntil(() => load.results.filter((r) => r.ok).length >= 10, { timeoutMs: 30_000, what: 'steady load through both instances' });
  const target1 = `127.0.0.1:${system.ports.esign[0]}`;
  const target2 = `127.0.0.1:${system.ports.esign[1]}`;

  await t.test('one kill: at most the calls in flight fail; the instance is back HEALTHY on its own', async () => {
    const pid = currentPid(system.proc.output(), 'esign-1');
    assert.ok(pid);
    const killedAt = Date.now();
    process.kill(pid, 'SIGKILL');
    await pollUntil(() => currentPid(system.proc.output(), 'esign-1') !== pid, { timeoutMs: 30_000, what: 'esign-1 started again' });
    await pollUntil(async () => (await targetHealth(system, target1)) === 'HEALTHY', { timeoutMs: 60_000, what: `${target1} HEALTHY again` });
    const since = load.results.length;
    await pollUntil(() => load.results.length >= since + 10, { timeoutMs: 30_000, what: 'more load after the restart' });
    const after = load.results.filter((r) => r.at >= killedAt);
    t.diagnostic(`${after.length} calls since the kill, ${after.filter((r) => !r.ok).length} failed`);
    // Only a call in flight on the killed instance can fail: a refused connection is retried on
    // the other target, and the supervisor marks the target unhealthy at once. That is within
    // the passive checks' budget (tcp_failures 1, http_failures 3 in deploy/kong.yml).
    assert.ok(after.filter((r) => !r.ok).length <= LOOPS, summary(after));
    assert.match(system.proc.output(), /esign-1 exited unexpectedly \(SIGKILL\) after [\d.]+ s up; restarting in 0\.2 s \(crash 1 in a row, 1 in all\)/);
    assert.equal(await targetHealth(system, target2), 'HEALTHY');
  });

  await t.test('five kills in a row: growing backoff in the logs, a crash loop reported, no outage', async () => {
    const startedAt = Date.now();
    for (let kill = 1; kill <= 5; kill++) {
      // Each new process is killed once it answers: it crashed right after coming up.
      const pid = await pollUntil(() => currentPid(system.proc.output(), 'esign-1'), { what: 'esign-1 running' });
      await pollUntil(async () => (await fetch(`http://${target1}/health`).then((r) => r.status, () => 0)) === 200, { timeoutMs: 60_000, what: `esign-1 (pid ${pid}) answering` });
      process.kill(pid, 'SIGKILL');
      await pollUntil(() => currentPid(system.proc.output(), 'esign-1') !== pid, { timeoutMs: 60_000, what: `esign-1 started again after kill ${kill}` });
    }
    await pollUntil(async () => (await targetHealth(system, target1)) === 'HEALTHY', { timeoutMs: 60_000, what: `${target1} HEALTHY after the crash loop` });
    const out = system.proc.output();
    // The first kill above was the second crash: it came less than 60 s (a stable run) after the first.
    const delays = [...out.matchAll(/esign-1 exited unexpectedly \(SIGKILL\) after [\d.]+ s up; restarting in ([\d.]+) s \(crash (\d+) in a row, (\d+) in all\)/g)].map((m) => [Number(m[1]), Number(m[2]), Number(m[3])]);
    assert.deepEqual(delays, [[0.2, 1, 1], [0.4, 2, 2], [0.8, 3, 3], [1.6, 4, 4], [1.6, 5, 5], [1.6, 6, 6]].slice(0, delays.length));
    assert.equal(delays.length, 6, out);
    assert.match(out, /esign-1 is crash-looping \(3 crashes in a row; retried every 1\.6 s at most\)\. Its last lines:\nsystem {3}\| {3}esign-1 > /);
    assert.match(out, /status: esign-1 down, restart in \d+s \(\d+ restarts, 5 crashes in a row\) · esign-2 up \S+ · gateway up \S+/);
    const during = load.results.filter((r) => r.at >= startedAt);
    t.diagnostic(`${during.length} calls during the crash loop, ${during.filter((r) => !r.ok).length} failed`);
    assert.ok(during.length >= 50, `the load went on (${during.length} calls)`);
    assert.ok(during.filter((r) => !r.ok).length <= 5 * LOOPS, summary(during));
  });
  await load.stop();
});
