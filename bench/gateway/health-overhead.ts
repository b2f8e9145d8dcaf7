// What health checking costs on the proxy path (issue 4: under 5% throughput). The same gateway
// and upstreams twice — health checks off (Kong's defaults) and on (active http probes every
// second plus passive counting of every proxied response). Every round starts a fresh pair of
// gateway processes, in alternating launch order, and measures them in alternating order: a
// single long-lived pair once showed a steady 10% gap that was the processes, not the checks.
// CONTROL=1 adds an off-vs-off pair per round (the same config twice): the noise floor.
//
//   node --import tsx bench/gateway/health-overhead.ts
//
// Env knobs: DURATION (s, default 10), ROUNDS (default 3), CONNS (default 64), WORKERS ("1 2"),
// CONTROL (unset). Upstream: nginx `return 200` on two ports, as bench/gateway/run.ts.
// Everything binds 127.0.0.1 and every process started here is stopped (by process group).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNS = Number(process.env.CONNS ?? 64);
const WORKERS = (process.env.WORKERS ?? '1 2').split(/\s+/).filter(Boolean).map(Number);
const CONTROL = process.env.CONTROL === '1';
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-health-'));
const running: ChildProcess[] = [];

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function launch(name: string, command: string, args: string[]): ChildProcess {
  const log = openSync(join(dir, `${name}.log`), 'a');
  const child = spawn(command, args, { cwd: ROOT, detached: true, stdio: ['ignore', log, log] });
  running.push(child);
  return child;
}

async function stopAll(children: ChildProcess[] = running.splice(0).reverse()): Promise<void> {
  for (const child of children) {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      continue;
    }
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, 'SIGKILL'), 8000);
    await exited;
    clearTimeout(timer);
  }
}

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

/** CPU seconds (user + system) used so far by every process in group `pgid` (the gateway and its workers). */
function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // exited meanwhile
    }
  }
  return ticks / 100;
}

function wrk(port: number): number {
  const url = `http://127.0.0.1:${port}/`;
  spawnSync('wrk', ['-t1', `-c${CONNS}`, '-d3s', url], { stdio: 'ignore' });
  const out = spawnSync('timeout', ['-k', '5', String(DURATION + 30), 'wrk', '-t1', `-c${CONNS}`, `-d${DURATION}s`, url], { encoding: 'utf8' }).stdout;
  if (/Non-2xx/.test(out)) throw new Error(`non-2xx responses on ${url}:\n${out}`);
  return Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

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

  const lines = [`wrk -t1 -c${CONNS} -d${DURATION}s keep-alive, ${ROUNDS} rounds (fresh processes each), median; ${new Date().toISOString()}`, '',
    '| workers | pair | A req/s | B req/s | B/A | A µs CPU/req | B µs CPU/req |', '| ---: | --- | ---: | ---: | ---: | ---: | ---: |'];
  const pairs: { name: string; a: string; b: string }[] = [{ name: 'off → on', a: 'off', b: 'on' }, ...(CONTROL ? [{ name: 'off → off (control)', a: 'off', b: 'off' }] : [])];
  for (const workers of WORKERS) {
    for (const pair of pairs) {
      const rps = { a: [] as number[], b: [] as number[] };
      const cpu = { a: [] as number[], b: [] as number[] };
      for (let round = 1; round <= ROUNDS; round++) {
        // Alternate which is launched and measured first, so neither is always the older process
        // or runs on a warmer or cooler machine.
        const order = round % 2 ? (['a', 'b'] as const) : (['b', 'a'] as const);
        const ports = { a: await freePort(), b: await freePort() };
        const children: Record<'a' | 'b', ChildProcess | undefined> = { a: undefined, b: undefined };
        for (const side of order) {
          const child = launch(`signet-w${workers}-r${round}-${side}-${pair[side]}`, process.execPath, ['--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', join(dir, `${pair[side]}.yml`),
            '--proxy-listen', `127.0.0.1:${ports[side]}`, '--admin-listen', 'off', '--workers', String(workers)]);
          children[side] = child;
          await pollUntil(async () => (await status(ports[side])) === 200, { timeoutMs: 60_000, intervalMs: 200, what: `signet ${pair[side]}` });
        }
        for (const side of order) {
          const pgid = children[side]?.pid ?? 0;
          const cpu0 = groupCpuSeconds(pgid);
          const r = wrk(ports[side]);
          // CPU per request includes the warm-up run: both sides alike.
          const us = ((groupCpuSeconds(pgid) - cpu0) * 1e6) / (r * (DURATION + 3));
          rps[side].push(r);
          cpu[side].push(us);
          console.log(`workers ${workers} ${pair.name} round ${round} ${side}=${pair[side].padEnd(3)}: ${Math.round(r).toLocaleString('en')} req/s, ${us.toFixed(1)} µs CPU/req`);
        }
        const started = [children.a, children.b].filter((c): c is ChildProcess => c !== undefined);
        await stopAll(started);
        running.splice(0, running.length, ...running.filter((c) => !started.includes(c)));
      }
      const a = median(rps.a);
      const b = median(rps.b);
      lines.push(`| ${workers} | ${pair.name} | ${Math.round(a).toLocaleString('en')} | ${Math.round(b).toLocaleString('en')} | ${(b / a).toFixed(3)} | ` +
        `${median(cpu.a).toFixed(1)} | ${median(cpu.b).toFixed(1)} |`);
    }
  }
  writeFileSync(join(dir, 'summary.md'), lines.join('\n') + '\n');
  console.log('\n' + lines.join('\n') + `\n\nlogs and configs: ${dir}`);
}

try {
  await main();
} finally {
  await stopAll();
}
