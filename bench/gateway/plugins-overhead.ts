// What the plugin engine costs on the proxy path (Kong's plugins, compiled per route):
//   - key-auth + acl on the route vs the same route without plugins (target: ≥ 0.85× req/s);
//   - a route without plugins on this build vs the build before plugins existed (BEFORE, a
//     commit; default the parent of the plugin-engine commit) — the "pays nothing" claim;
//   - rate-limiting (policy local, a limit never reached) vs no plugins: with several workers,
//     the primary holds the node's counters (asked over IPC);
//   - rate-limiting (policy redis, same limit) vs no plugins, against a redis-server started
//     here; the Redis commands per request are counted from INFO commandstats;
//   - the same build and config twice: the noise floor (control pair).
// Method as health-overhead.ts: every round starts a fresh pair of gateway processes
// (alternating launch order), warms both, then measures them in SEGMENTS short alternating
// slices; the round's figure is B/A of the pooled requests, the result the median over rounds.
// Each side's CPU per request (its process group's utime+stime over the measured slices, divided
// by its requests) is reported too: on a loaded machine it moves far less than req/s does.
// Every request carries the key (apikey header), so both sides parse the same bytes.
//
//   node --import tsx bench/gateway/plugins-overhead.ts
//
// Env knobs: DURATION (s per slice, default 3), SEGMENTS (default 4), ROUNDS (default 5), CONNS
// (default 64), WARMUP (s of load before measuring, default 3), WORKERS ("1"), BEFORE (a commit),
// PAIRS (comma list of pair names to run, default all: key-auth, before, rate-limiting, redis,
// control). Upstream: nginx `return 200`, as run.ts.
// The build before is `git archive`d into a temporary directory and run with this checkout's
// node_modules. Everything binds 127.0.0.1; every process started here is stopped.
import { execSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { Redis } from 'ioredis';
import { BenchProcesses, freePort, groupCpuTicks, median, wrkCount } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 3);
const SEGMENTS = Number(process.env.SEGMENTS ?? 4);
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const CONNS = Number(process.env.CONNS ?? 64);
// Seconds of load on each fresh process before its measured slices (V8 optimises the hot path meanwhile).
const WARMUP = Number(process.env.WARMUP ?? 3);
const WORKERS = (process.env.WORKERS ?? '1').split(/\s+/).filter(Boolean).map(Number);
// The commit before "gateway plugins: Kong's plugin engine, consumers and credentials, …".
const BEFORE = process.env.BEFORE ?? '50f97d8433711ebd38f8a5b50beb08a65eb1cc09';
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-plugins-'));
const procs = new BenchProcesses(dir, ROOT);

/** One side of a pair: which build, which configuration. */
type Side = { readonly label: string; readonly build: 'now' | 'before'; readonly config: 'plain' | 'plugins' | 'ratelimit' | 'ratelimit-redis' };
const NOW_PLAIN: Side = { label: 'no plugins', build: 'now', config: 'plain' };
const ALL_PAIRS: readonly { key: string; name: string; a: Side; b: Side }[] = [
  { key: 'key-auth', name: 'no plugins → key-auth + acl', a: NOW_PLAIN, b: { label: 'key-auth + acl', build: 'now', config: 'plugins' } },
  { key: 'before', name: 'before plugins → this build, no plugins', a: { label: 'before', build: 'before', config: 'plain' }, b: NOW_PLAIN },
  { key: 'rate-limiting', name: 'no plugins → rate-limiting (local)', a: NOW_PLAIN, b: { label: 'rate-limiting', build: 'now', config: 'ratelimit' } },
  { key: 'redis', name: 'no plugins → rate-limiting (redis)', a: NOW_PLAIN, b: { label: 'rate-limiting redis', build: 'now', config: 'ratelimit-redis' } },
  { key: 'control', name: 'control: this build twice, no plugins', a: NOW_PLAIN, b: NOW_PLAIN },
];
const WANTED = process.env.PAIRS?.split(',').map((s) => s.trim());
const PAIRS = ALL_PAIRS.filter((p) => WANTED === undefined || WANTED.includes(p.key));

function status(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = get({ host: '127.0.0.1', port, path: '/', agent: false, headers: { apikey: 'bench-key' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', () => resolve(0));
  });
}

function kongYml(up1: number, up2: number, config: Side['config'], redisPort: number): string {
  const plugins = config === 'plugins';
  const consumers = plugins ? 'consumers:\n  - username: bench\n    keyauth_credentials: [{ key: bench-key }]\n    acls: [{ group: bench }]\n' : '';
  const routePlugins = plugins ? '        plugins:\n          - name: key-auth\n          - name: acl\n            config: { allow: [bench] }\n'
    // A limit the run never reaches: every request is checked and counted, none refused.
    : config === 'ratelimit' ? '        plugins:\n          - name: rate-limiting\n            config: { year: 1000000000000, limit_by: ip }\n'
      : config === 'ratelimit-redis' ? `        plugins:\n          - name: rate-limiting\n            config: { year: 1000000000000, limit_by: ip, policy: redis, redis: { host: 127.0.0.1, port: ${redisPort} } }\n` : '';
  return `_format_version: "3.0"\n${consumers}services:\n  - name: bench\n    host: bench.upstream\n    routes:\n      - name: all\n        paths: ["/"]\n${routePlugins}` +
    `upstreams:\n  - name: bench.upstream\n    targets:\n      - target: 127.0.0.1:${up1}\n      - target: 127.0.0.1:${up2}\n`;
}

/** The build before plugins, extracted from git, sharing this checkout's node_modules. */
function checkoutBefore(): string {
  const out = join(dir, 'before');
  mkdirSync(out);
  execSync(`git archive ${BEFORE} packages/gateway packages/kit package.json tsconfig.json | tar -x -C ${out}`, { cwd: ROOT });
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'));
  return out;
}

// INFO commandstats since RESETSTAT: the commands the gateway sent (its round trips: the
// rate-limiting script, MGET) and every command Redis ran, the script's INCR/EXPIRE included.
const SENT = new Set(['evalsha', 'eval', 'mget']);
function redisCalls(info: string): { sent: number; ran: number } {
  const calls = { sent: 0, ran: 0 };
  for (const m of info.matchAll(/^cmdstat_(\w+):calls=(\d+)/gm)) {
    if (m[1] === 'info' || m[1] === 'config') continue;
    calls.ran += Number(m[2]);
    if (SENT.has(m[1]!)) calls.sent += Number(m[2]);
  }
  return calls;
}

const wrkRequests = (port: number, seconds: number): number => wrkCount(port, seconds, CONNS, ['apikey: bench-key']);

async function main(): Promise<void> {
  const [up1, up2] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'upstream.conf'), `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
    `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path ${dir}/cb;\n  proxy_temp_path ${dir}/pt;\n` +
    `  fastcgi_temp_path ${dir}/ft;\n  uwsgi_temp_path ${dir}/ut;\n  scgi_temp_path ${dir}/st;\n` +
    `  server {\n    listen 127.0.0.1:${up1} reuseport;\n    listen 127.0.0.1:${up2} reuseport;\n    location / { default_type application/json; return 200 '{"ok":true}'; }\n  }\n}\n`);
  procs.launch('upstream', 'nginx', ['-c', join(dir, 'upstream.conf'), '-p', dir]);
  await pollUntil(async () => (await status(up1)) === 200 && (await status(up2)) === 200, { timeoutMs: 10_000, what: 'upstream nginx' });
  // Redis for the redis pair: no persistence; its command counters tell the round trips.
  const redisPort = await freePort();
  const wantsRedis = PAIRS.some((p) => p.b.config === 'ratelimit-redis');
  const redis = wantsRedis ? new Redis({ port: redisPort, lazyConnect: true, maxRetriesPerRequest: 0 }) : undefined;
  if (redis !== undefined) {
    // Refused connections while redis-server starts are expected; the poll below retries.
    redis.on('error', () => undefined);
    procs.launch('redis', 'redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no']);
    await pollUntil(async () => redis.connect().then(() => true, () => false), { timeoutMs: 10_000, what: 'redis-server' });
  }
  for (const config of ['plain', 'plugins', 'ratelimit', 'ratelimit-redis'] as const) writeFileSync(join(dir, `${config}.yml`), kongYml(up1, up2, config, redisPort));
  const roots = { now: ROOT, before: PAIRS.some((p) => p.a.build === 'before') ? checkoutBefore() : ROOT };

  const lines = [`wrk -t1 -c${CONNS}, ${ROUNDS} rounds of fresh processes, ${WARMUP} s warm-up, ${SEGMENTS} alternating ${DURATION} s slices per side; before = ${BEFORE.slice(0, 7)}; ${new Date().toISOString()}`, '',
    '| workers | pair | A req/s | B req/s | B/A median (rounds) | CPU µs/request A → B (median) |', '| ---: | --- | ---: | ---: | --- | --- |'];
  for (const workers of WORKERS) {
    for (const pair of PAIRS) {
      const ratios: number[] = [];
      const perRequest: number[] = [];
      const ranPerRequest: number[] = [];
      const rps = { a: [] as number[], b: [] as number[] };
      const cpuUs = { a: [] as number[], b: [] as number[] };
      for (let round = 1; round <= ROUNDS; round++) {
        const order = round % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        const ports = { a: await freePort(), b: await freePort() };
        const children: Record<'a' | 'b', ChildProcess | undefined> = { a: undefined, b: undefined };
        for (const key of order) {
          const side = pair[key];
          children[key] = procs.launch(`signet-w${workers}-r${round}-${key}-${side.build}-${side.config}`, process.execPath,
            ['--import', 'tsx', join(roots[side.build], 'packages/gateway/src/cli.ts'), 'start', '--config', join(dir, `${side.config}.yml`),
              '--proxy-listen', `127.0.0.1:${ports[key]}`, '--admin-listen', 'off', '--workers', String(workers)]);
          await pollUntil(async () => (await status(ports[key])) === 200, { timeoutMs: 60_000, intervalMs: 200, what: `signet ${side.label}` });
        }
        for (const key of order) wrkRequests(ports[key], WARMUP);
        if (redis !== undefined) await redis.config('RESETSTAT');
        const ticks0 = { a: groupCpuTicks(children.a!.pid!), b: groupCpuTicks(children.b!.pid!) };
        const done = { a: 0, b: 0 };
        for (let slice = 0; slice < SEGMENTS; slice++) {
          for (const key of slice % 2 ? [...order].reverse() : order) done[key] += wrkRequests(ports[key], DURATION);
        }
        if (pair.b.config === 'ratelimit-redis' && redis !== undefined) {
          const calls = redisCalls(await redis.info('commandstats'));
          perRequest.push(calls.sent / done.b);
          ranPerRequest.push(calls.ran / done.b);
        }
        // Clock ticks are 10 ms: µs per request.
        for (const key of ['a', 'b'] as const) cpuUs[key].push(((groupCpuTicks(children[key]!.pid!) - ticks0[key]) * 10_000) / done[key]);
        rps.a.push(done.a / (SEGMENTS * DURATION));
        rps.b.push(done.b / (SEGMENTS * DURATION));
        ratios.push(done.b / done.a);
        console.log(`workers ${workers} ${pair.name} round ${round}: A ${Math.round(rps.a.at(-1)!)} req/s, B ${Math.round(rps.b.at(-1)!)} req/s, B/A ${(done.b / done.a).toFixed(3)}, CPU µs/request A ${cpuUs.a.at(-1)!.toFixed(1)} B ${cpuUs.b.at(-1)!.toFixed(1)}` +
          (perRequest.length === round ? `, Redis round trips per request ${perRequest.at(-1)!.toFixed(3)} (commands run ${ranPerRequest.at(-1)!.toFixed(3)})` : ''));
        for (const child of [children.a, children.b]) if (child !== undefined) await procs.stop(child);
      }
      lines.push(`| ${workers} | ${pair.name} | ${Math.round(median(rps.a)).toLocaleString('en')} | ${Math.round(median(rps.b)).toLocaleString('en')} | ` +
        `**${median(ratios).toFixed(3)}** (${ratios.map((x) => x.toFixed(2)).join(', ')}) | ${median(cpuUs.a).toFixed(1)} → ${median(cpuUs.b).toFixed(1)} |` +
        (perRequest.length > 0 ? ` Redis round trips per request: ${median(perRequest).toFixed(3)} (commands run ${median(ranPerRequest).toFixed(3)}) |` : ''));
    }
  }
  redis?.disconnect();
  writeFileSync(join(dir, 'summary.md'), lines.join('\n') + '\n');
  console.log('\n' + lines.join('\n') + `\n\nlogs and configs: ${dir}`);
}

try {
  await main();
} finally {
  await procs.stopAll();
}
