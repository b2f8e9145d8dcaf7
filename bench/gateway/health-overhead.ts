// What health checking costs on the proxy path (the target: under 5% throughput). The same gateway
// and upstreams twice — health checks off (Kong's defaults) and on (active http probes every
// second plus passive counting of every proxied response). Every round starts a fresh pair of
// gateway processes (alternating launch order), warms both, then measures them in SEGMENTS short
// alternating slices, so that load from elsewhere on the machine hits both alike; the round's
// figure is B/A of the pooled requests. The result is the median over rounds. Fresh processes
// matter: one long-lived pair once showed a steady 10% gap that was the processes, not the
// checks (two identical processes differ by up to ~8%). CONTROL=1 adds an off-vs-off pair per
// round (the same config twice): the noise floor.
//
//   node --import tsx bench/gateway/health-overhead.ts
//
// Env knobs: DURATION (s per slice, default 3), SEGMENTS (slices per side, default 4), ROUNDS
// (default 5), CONNS (default 64), WORKERS ("1 2"), CONTROL (unset). Upstream: nginx `return 200` on two ports, as bench/gateway/run.ts.
// Everything binds 127.0.0.1 and every process started here is stopped (by process group).
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { BenchProcesses, freePort, groupCpuTicks, median, wrkCount } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 3);
const SEGMENTS = Number(process.env.SEGMENTS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONNS = Number(process.env.CONNS ?? 64);
const WORKERS = (process.env.WORKERS ?? '1 2').split(/\s+/).filter(Boolean).map(Number);
const CONTROL = process.env.CONTROL === '1';
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-health-'));
const procs = new BenchProcesses(dir, ROOT);
const launch = procs.launch.bind(procs);
/** CPU seconds (user + system) used so far by every process in group `pgid` (the gateway and its workers). */
const groupCpuSeconds = (pgid: number): number => groupCpuTicks(pgid) / 100;

function status(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

function kongYml(up1: number, up2: number, healthchecks: string): string {
  return `_format_version: "3.0"\nservices:\n  - name: bench\n    host: bench.upstream\n    routes:\n      - name: all\n        paths: ["/"]\n` +
    `upstreams:\n  - name: bench.upstream\n${healthchecks}    targets:\n      - target: 127.0.0.1:${up1}\n      - target: 127.0.0.1:${up2}\n`;
}

// On: every mode a real deployment uses — probes each second (healthy and unhealthy loops) and
// all three passive thresholds, so every proxied response goes through the counter model.
const CHECKS_ON = '    healthchecks:\n      active:\n        healthy: { interval: 1, successes: 2 }\n        unhealthy: { interval: 1, http_failures: 2, tcp_failures: 2, timeouts: 2 }\n' +
  '      passive:\n        healthy: { successes: 5 }\n        unhealthy: { http_failures: 5, tcp_failures: 5, timeouts: 5 }\n';

const wrkRequests = (port: number, seconds: number): number => wrkCount(port, seconds, CONNS);

async function main(): Promise<void> {
  const [up1, up2] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'upstream.conf'), `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
    `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path ${dir}/cb;\n  proxy_temp_path ${dir}/pt;\n` +
    `  fastcgi_temp_path ${dir}/ft;\n  uwsgi_temp_path ${dir}/ut;\n  scgi_temp_path ${dir}/st;\n` +
    `  server {\n    listen 127.0.0.1:${up1} reuseport;\n    listen 127.0.0.1:${up2} reuseport;\n    location / { default_type application/json; return 200 '{"ok":true}'; }\n  }\n}\n`);
  launch('upstream', 'nginx', ['-c', join(dir, 'upstream.conf'), '-p', dir]);
  await pollUntil(async () => (await status(up1)) === 200 && (await status(up2)) === 200, { timeoutMs: 10_000, what: 'upstream nginx' });
  writeFileSync(join(dir, 'off.yml'), kongYml(up1, up2, ''));
  writeFileSync(join(dir, 'on.yml'), kongYml(up1, up2, CHECKS_ON));

  const lines = [`wrk -t1 -c${CONNS}, ${ROUNDS} rounds of fresh processes, ${SEGMENTS} alternating ${DURATION} s slices per side; ${new Date().toISOString()}`, '',
    '| workers | pair | A req/s | B req/s | B/A median (rounds) | A µs CPU/req | B µs CPU/req |', '| ---: | --- | ---: | ---: | --- | ---: | ---: |'];
  const pairs: { name: string; a: string; b: string }[] = [{ name: 'off → on', a: 'off', b: 'on' }, ...(CONTROL ? [{ name: 'off → off (control)', a: 'off', b: 'off' }] : [])];
  for (const workers of WORKERS) {
    for (const pair of pairs) {
      const rounds: { rps: Record<'a' | 'b', number>; cpu: Record<'a' | 'b', number> }[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternate which is launched and measured first, so neither is always the older process.
        const order = round % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        const ports = { a: await freePort(), b: await freePort() };
        const children: Record<'a' | 'b', ChildProcess | undefined> = { a: undefined, b: undefined };
        for (const side of order) {
          children[side] = launch(`signet-w${workers}-r${round}-${side}-${pair[side]}`, process.execPath, ['--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', join(dir, `${pair[side]}.yml`),
            '--proxy-listen', `127.0.0.1:${ports[side]}`, '--admin-listen', 'off', '--workers', String(workers)]);
          await pollUntil(async () => (await status(ports[side])) === 200, { timeoutMs: 60_000, intervalMs: 200, what: `signet ${pair[side]}` });
        }
        for (const side of order) wrkRequests(ports[side], 3);
        const done = { a: 0, b: 0 };
        const cpuSeconds = { a: 0, b: 0 };
        for (let slice = 0; slice < SEGMENTS; slice++) {
          for (const side of slice % 2 ? [...order].reverse() : order) {
            const pgid = children[side]?.pid ?? 0;
            const cpu0 = groupCpuSeconds(pgid);
            done[side] += wrkRequests(ports[side], DURATION);
            cpuSeconds[side] += groupCpuSeconds(pgid) - cpu0;
          }
        }
        const result = {
          rps: { a: done.a / (SEGMENTS * DURATION), b: done.b / (SEGMENTS * DURATION) },
          cpu: { a: (cpuSeconds.a * 1e6) / done.a, b: (cpuSeconds.b * 1e6) / done.b },
        };
        rounds.push(result);
        console.log(`workers ${workers} ${pair.name} round ${round}: A=${pair.a} ${Math.round(result.rps.a).toLocaleString('en')} req/s ${result.cpu.a.toFixed(1)} µs CPU/req, ` +
          `B=${pair.b} ${Math.round(result.rps.b).toLocaleString('en')} req/s ${result.cpu.b.toFixed(1)} µs CPU/req, B/A ${(result.rps.b / result.rps.a).toFixed(3)}`);
        for (const child of [children.a, children.b]) if (child !== undefined) await procs.stop(child);
      }
      const ratios = rounds.map((r) => r.rps.b / r.rps.a);
      lines.push(`| ${workers} | ${pair.name} | ${Math.round(median(rounds.map((r) => r.rps.a))).toLocaleString('en')} | ${Math.round(median(rounds.map((r) => r.rps.b))).toLocaleString('en')} | ` +
        `**${median(ratios).toFixed(3)}** (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${median(rounds.map((r) => r.cpu.a)).toFixed(1)} | ${median(rounds.map((r) => r.cpu.b)).toFixed(1)} |`);
    }
  }
  writeFileSync(join(dir, 'summary.md'), lines.join('\n') + '\n');
  console.log('\n' + lines.join('\n') + `\n\nlogs and configs: ${dir}`);
}

try {
  await main();
} finally {
  await procs.stopAll();
}
