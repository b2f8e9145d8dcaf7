// What the traffic, transformation and observability plugins cost on the proxy path (the target:
// a route with rate-limiting (local) + cors + correlation-id + prometheus keeps ≥ 0.8× the req/s
// of the same route without plugins), with a control pair (the same build and config twice: the noise floor).
// Method as plugins-overhead.ts: every round starts a fresh pair of gateway processes
// (alternating launch order), warms both, then measures them in SEGMENTS short alternating
// slices; the round's figure is B/A of the pooled requests, the result the median over rounds.
// Every request carries an Origin, so cors does its work (and both sides parse the same bytes).
// Each side's CPU per request (its process group's utime+stime over the measured slices) is
// reported too: it moves far less with the machine's load than req/s does.
//
//   node --import tsx bench/gateway/observe-overhead.ts
//
// With one worker on a machine of two or more CPUs, the gateway runs on CPU 1 and wrk and nginx
// on CPU 0 (PIN=0: all three share every CPU, as before 2026-11-27). Pinned, req/s is what the
// gateway serves, bound by its own CPU; unpinned on two cores it also measures wrk, which parses
// each plugin response's longer head (660 bytes against 300) on the cores the gateway needs, and
// the scheduler's mix of three busy processes (docs/benchmarks.md has both).
//
// Env knobs: DURATION (s per slice, default 3), SEGMENTS (4), ROUNDS (5), CONNS (64), WARMUP (s, 3), WORKERS
// ("1"), PLUGINS (the plugin list of the B side, default
// "cors,correlation-id,prometheus,rate-limiting"), PIN ("1"). Upstream: nginx `return 200`. Binds 127.0.0.1; stops what it starts.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { BenchProcesses, freePort, groupCpuTicks, median, wrkCount } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 3);
const SEGMENTS = Number(process.env.SEGMENTS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONNS = Number(process.env.CONNS ?? 64);
// Seconds of load on each fresh process before its measured slices (V8 optimises the hot path meanwhile).
const WARMUP = Number(process.env.WARMUP ?? 3);
const WORKERS = (process.env.WORKERS ?? '1').split(/\s+/).filter(Boolean).map(Number);
const PIN = process.env.PIN !== '0' && cpus().length >= 2 && WORKERS.every((w) => w === 1);
// taskset's prefix for a process on CPU `n`, when pinned.
const pinned = (n: number, command: string, args: string[]): [string, string[]] => (PIN ? ['taskset', ['-c', String(n), command, ...args]] : [command, args]);
const PLUGINS = (process.env.PLUGINS ?? 'cors,correlation-id,prometheus,rate-limiting').split(',').map((s) => s.trim()).filter(Boolean);
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-observe-'));
const procs = new BenchProcesses(dir, ROOT);

// Each plugin as a route would carry it for an API used from browsers.
const PLUGIN_YAML: Readonly<Record<string, string>> = {
  cors: '          - name: cors\n            config: { origins: ["https://app.example.test"], credentials: true, exposed_headers: [X-Request-Id] }\n',
  'correlation-id': '          - name: correlation-id\n            config: { echo_downstream: true }\n',
  prometheus: '          - name: prometheus\n            config: { status_code_metrics: true, latency_metrics: true, bandwidth_metrics: true }\n',
  'rate-limiting': '          - name: rate-limiting\n            config: { second: 1000000000, policy: local }\n',
};

type Side = { readonly label: string; readonly config: 'plain' | 'plugins' };
const PLAIN: Side = { label: 'no plugins', config: 'plain' };
const PAIRS: readonly { name: string; a: Side; b: Side }[] = [
  { name: `no plugins → ${PLUGINS.join(' + ')}`, a: PLAIN, b: { label: PLUGINS.join(' + '), config: 'plugins' } },
  { name: 'control: no plugins twice', a: PLAIN, b: PLAIN },
];

const ORIGIN = 'https://app.example.test';

function status(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/', agent: false, headers: { origin: ORIGIN } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

function kongYml(up1: number, up2: number, plugins: boolean): string {
  const routePlugins = plugins ? '        plugins:\n' + PLUGINS.map((p) => PLUGIN_YAML[p] ?? '').join('') : '';
  return `_format_version: "3.0"\nservices:\n  - name: bench\n    host: bench.upstream\n    routes:\n      - name: all\n        paths: ["/"]\n${routePlugins}` +
    `upstreams:\n  - name: bench.upstream\n    targets:\n      - target: 127.0.0.1:${up1}\n      - target: 127.0.0.1:${up2}\n`;
}

const wrkRequests = (port: number, seconds: number): number => wrkCount(port, seconds, CONNS, [`Origin: ${ORIGIN}`], PIN ? 0 : undefined);

async function main(): Promise<void> {
  const unknown = PLUGINS.filter((p) => PLUGIN_YAML[p] === undefined);
  if (unknown.length > 0) throw new Error(`no bench configuration for ${unknown.join(', ')}`);
  const [up1, up2] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'upstream.conf'), `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
    `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path ${dir}/cb;\n  proxy_temp_path ${dir}/pt;\n` +
    `  fastcgi_temp_path ${dir}/ft;\n  uwsgi_temp_path ${dir}/ut;\n  scgi_temp_path ${dir}/st;\n` +
    `  server {\n    listen 127.0.0.1:${up1} reuseport;\n    listen 127.0.0.1:${up2} reuseport;\n    location / { default_type application/json; return 200 '{"ok":true}'; }\n  }\n}\n`);
  procs.launch('upstream', ...pinned(0, 'nginx', ['-c', join(dir, 'upstream.conf'), '-p', dir]));
  await pollUntil(async () => (await status(up1)) === 200 && (await status(up2)) === 200, { timeoutMs: 10_000, what: 'upstream nginx' });
  writeFileSync(join(dir, 'plain.yml'), kongYml(up1, up2, false));
  writeFileSync(join(dir, 'plugins.yml'), kongYml(up1, up2, true));

  const lines = [`${PIN ? 'gateway on CPU 1, wrk and nginx on CPU 0' : 'unpinned'}; wrk -t1 -c${CONNS}, ${ROUNDS} rounds of fresh processes, ${WARMUP} s warm-up, ${SEGMENTS} alternating ${DURATION} s slices per side; ${new Date().toISOString()}`, '',
    '| workers | pair | A req/s | B req/s | B/A median (rounds) | CPU µs/request A → B (median) |', '| ---: | --- | ---: | ---: | --- | --- |'];
  for (const workers of WORKERS) {
    for (const pair of PAIRS) {
      const ratios: number[] = [];
      const rps = { a: [] as number[], b: [] as number[] };
      const cpuUs = { a: [] as number[], b: [] as number[] };
      for (let round = 1; round <= ROUNDS; round++) {
        const order = round % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        const ports = { a: await freePort(), b: await freePort() };
        const children: Record<'a' | 'b', ChildProcess | undefined> = { a: undefined, b: undefined };
        for (const key of order) {
          const side = pair[key];
          children[key] = procs.launch(`signet-w${workers}-r${round}-${key}-${side.config}`, ...pinned(1, process.execPath,
            ['--import', 'tsx', join(ROOT, 'packages/gateway/src/cli.ts'), 'start', '--config', join(dir, `${side.config}.yml`),
              '--proxy-listen', `127.0.0.1:${ports[key]}`, '--admin-listen', 'off', '--workers', String(workers)]));
          await pollUntil(async () => (await status(ports[key])) === 200, { timeoutMs: 60_000, intervalMs: 200, what: `signet ${side.label}` });
        }
        for (const key of order) wrkRequests(ports[key], WARMUP);
        const ticks0 = { a: groupCpuTicks(children.a!.pid!), b: groupCpuTicks(children.b!.pid!) };
        const done = { a: 0, b: 0 };
        for (let slice = 0; slice < SEGMENTS; slice++) {
          for (const key of slice % 2 ? [...order].reverse() : order) done[key] += wrkRequests(ports[key], DURATION);
        }
        // Each side's process group (a cluster's primary and workers): clock ticks are 10 ms.
        for (const key of ['a', 'b'] as const) cpuUs[key].push(((groupCpuTicks(children[key]!.pid!) - ticks0[key]) * 10_000) / done[key]);
        rps.a.push(done.a / (SEGMENTS * DURATION));
        rps.b.push(done.b / (SEGMENTS * DURATION));
        ratios.push(done.b / done.a);
        console.log(`workers ${workers} ${pair.name} round ${round}: A ${Math.round(rps.a.at(-1)!)} req/s, B ${Math.round(rps.b.at(-1)!)} req/s, B/A ${(done.b / done.a).toFixed(3)}, ` +
          `CPU µs/request A ${cpuUs.a.at(-1)!.toFixed(1)} B ${cpuUs.b.at(-1)!.toFixed(1)}`);
        for (const child of [children.a, children.b]) if (child !== undefined) await procs.stop(child);
      }
      lines.push(`| ${workers} | ${pair.name} | ${Math.round(median(rps.a)).toLocaleString('en')} | ${Math.round(median(rps.b)).toLocaleString('en')} | ` +
        `**${median(ratios).toFixed(3)}** (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${median(cpuUs.a).toFixed(1)} → ${median(cpuUs.b).toFixed(1)} |`);
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
