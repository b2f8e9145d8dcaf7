// A worker that dies is replaced by the primary; workers that keep dying young are replaced after
// growing delays (cluster/restart-backoff.ts), not in a fork loop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pollUntil } from '@signet/kit';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { send, startGatewayProcess } from '../health/gateway-process.ts';

const kongYml = (upstreamPort: number): string => `_format_version: "3.0"
services:
  - name: echo
    url: http://127.0.0.1:${upstreamPort}
    routes:
      - name: api
        paths: ["/api"]
`;

const workerPids = async (admin: string): Promise<number[]> =>
  (JSON.parse((await send(`${admin}/`)).body) as { pids: { workers: number[] } }).pids.workers;

test('start --workers 2: killed workers are replaced, the second quick death after twice the delay of the first', async (t) => {
  const upstream = await startUpstream(t);
  const g = await startGatewayProcess(t, kongYml(upstream.port), { workers: 2 });
  const delays = (): number[] =>
    [...g.proc.output().matchAll(/"delayMs":(\d+).*"msg":"worker exited; starting another"/g)].map((m) => Number(m[1]));
  // The first worker, then its replacement: one worker always stays, so the proxy port (0 in
  // the settings, an OS-chosen one) stays open through the primary's shared handle.
  const first = await workerPids(g.admin);
  let victim = first[0] ?? 0;
  for (const expected of [[100], [100, 200]]) {
    process.kill(victim, 'SIGKILL');
    const now = await pollUntil(async () => {
      const pids = await workerPids(g.admin);
      return pids.length === 2 && !pids.includes(victim) ? pids : undefined;
    }, { timeoutMs: 30_000, intervalMs: 50, what: `a replacement for worker ${victim}` });
    assert.deepEqual(delays(), expected);
    victim = now.find((pid) => !first.includes(pid)) ?? 0;
  }
  // The replacement serves once it listens.
  await pollUntil(async () => ((await send(`${g.proxy}/api/x`, 'GET', true).catch(() => undefined))?.status === 200 ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 50,
    what: 'the replacement workers to serve',
  });
});
