// A target process killed with SIGKILL under steady load through the real gateway:
// count the requests the clients see fail before passive checks eject it. With retries 0 every
// failed attempt is client-visible, so the count is the passive budget at work; with Kong's
// default retries (5) the clients should see none.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { startProcess } from '@signet/kit/testing';
import { request } from 'undici';
import { startGatewayProcess, targetHealth } from '../health/gateway-process.ts';
import { FaultUpstream } from './fault-upstream.ts';
import { faultKongYml } from './fault-kong-yml.ts';

// A separate process, so SIGKILL is a real crash: no FIN on its sockets, no goodbye.
const TARGET = `const s = require('node:http').createServer((q, r) => r.end('victim'));
s.keepAliveTimeout = 60000;
s.listen(0, '127.0.0.1', () => console.log('port ' + s.address().port));`;

async function victim(t: TestContext) {
  const proc = startProcess(process.execPath, ['-e', TARGET], {});
  t.after(() => proc.stop());
  const port = await pollUntil(() => /port (\d+)/.exec(proc.output())?.[1], { timeoutMs: 10_000, intervalMs: 20, what: 'the victim target to listen' });
  return { proc, target: `127.0.0.1:${port}` };
}

const PASSIVE_FAILURES = 3;
const TOTAL = 800;

async function killUnderLoad(t: TestContext, retries: number, concurrency: number) {
  const v = await victim(t);
  const steady = await FaultUpstream.start();
  t.after(() => steady.close());
  const g = await startGatewayProcess(t, faultKongYml([v.target, steady.target], {
    retries,
    // Kong reports the last attempt's outcome as its HTTP status (runloop log phase:
    // report_http_status), so without retries a refused connection counts as a 502: the
    // statuses list must hold 502, as deploy/kong.yml's does.
    healthchecks: { passive: { unhealthy: { http_statuses: [500, 502, 503, 504], tcp_failures: PASSIVE_FAILURES, timeouts: PASSIVE_FAILURES, http_failures: PASSIVE_FAILURES } } },
  }));
  let sent = 0;
  let killedAt = -1;
  const failures: Array<{ n: number; what: string }> = [];
  // Requests still running when the kill came may fail whatever their number: on a loaded
  // machine one can lag far behind the others.
  const inFlight = new Set<number>();
  let inFlightAtKill = new Set<number>();
  async function client(): Promise<void> {
    while (sent < TOTAL) {
      const n = sent++;
      if (n === 200 && killedAt < 0) {
        killedAt = n;
        inFlightAtKill = new Set(inFlight);
        v.proc.child.kill('SIGKILL');
      }
      inFlight.add(n);
      try {
        const res = await request(`${g.proxy}/load`, { headersTimeout: 10_000, bodyTimeout: 10_000 });
        const body = await res.body.text();
        if (res.statusCode !== 200) failures.push({ n, what: `${res.statusCode} ${body.slice(0, 80)}` });
      } catch (e) {
        failures.push({ n, what: (e as Error).message });
      } finally {
        inFlight.delete(n);
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, client));
  const health = await targetHealth(g.admin, 'svc.upstream');
  return { failures, health, target: v.target, killedAt, inFlightAtKill };
}

for (const concurrency of [1, 4]) {
  // Sequential clients see exactly the passive budget. Concurrent ones can add the requests that
  // were already dispatched to the target when the budget ran out (at most concurrency - 1):
  // nginx workers race the same way in Kong.
  const bound = PASSIVE_FAILURES + concurrency - 1;
  test(`a target SIGKILLed under load (${concurrency} client(s), retries 0): at most ${bound} client-visible failures, then ejected`, async (t) => {
    const { failures, health, target, killedAt, inFlightAtKill } = await killUnderLoad(t, 0, concurrency);
    t.diagnostic(`killed target, retries 0, ${concurrency} client(s): ${failures.length} client-visible failures of ${TOTAL} (passive budget ${PASSIVE_FAILURES})`);
    assert.equal(health[target], 'UNHEALTHY');
    assert.ok(failures.length >= 1 && failures.length <= bound, JSON.stringify(failures));
    // Only requests sent after the kill, or still running when it came, may fail.
    assert.ok(failures.every((f) => f.n >= killedAt || inFlightAtKill.has(f.n)), `a request that had finished before the kill failed: ${JSON.stringify(failures)}`);
    assert.ok(inFlightAtKill.size < concurrency, 'at most the other clients were mid-request at the kill');
  });
}

test(`a target SIGKILLed under load (4 clients) with Kong's default retries: the clients see no failure`, async (t) => {
  const { failures, health, target } = await killUnderLoad(t, 5, 4);
  t.diagnostic(`killed target, retries 5, 4 clients: ${failures.length} client-visible failures of ${TOTAL}`);
  assert.equal(health[target], 'UNHEALTHY');
  assert.deepEqual(failures, []);
});
