// Gateway benchmark: our gateway against Debian's nginx and HAProxy, a minimal undici proxy and
// the upstream itself, in the same run, with wrk (keep-alive and Connection: close).
//
//   node --import tsx bench/gateway/run.ts
//
// Env knobs: DURATION (s, default 10), ROUNDS (default 1), CONNS (default 64),
// ONLY="direct nginx-w1 signet-w2" (names), MODES="ka close", BASELINE_DIR=/path/to/an/older/checkout
// (adds signet-base-w1/-w2: that checkout's gateway, for before/after in one run). nginx-w2 is
// nginx with two workers, signet-sn-w2 is signet-w2 with node:cluster's SCHED_NONE,
// signet-rp-w2 with the `reuseport` listen flag; nginx-aff-w2, signet-aff-w2 and signet-aff-rp-w2
// bind each worker to its own CPU (worker_cpu_affinity auto). Everything binds 127.0.0.1,
// configs and logs go to a temp dir, every process started is stopped at the end (by its own
// process group). Results: a table on stdout and results.json / summary.md in that dir.
// Method: docs/benchmarks.md, "Gateway reference peers" (upstream = nginx `return 200`, 100-byte JSON, two ports).
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { BenchProcesses, freePort, groupCpuTicks } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 1);
const CONNS = Number(process.env.CONNS ?? 64);
const MODES = (process.env.MODES ?? 'ka close').split(/\s+/).filter(Boolean) as ('ka' | 'close')[];
const ONLY = process.env.ONLY?.split(/\s+/).filter(Boolean);
const BASELINE_DIR = process.env.BASELINE_DIR;
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-'));
const BODY = JSON.stringify({ ok: true, service: 'bench-upstream', padding: 'x'.repeat(54) });

type Proc = { name: string; child: ChildProcess };
const procs = new BenchProcesses(dir, ROOT);

function launch(name: string, command: string, args: string[], env: Record<string, string> = {}, cwd = ROOT): Proc {
  return { name, child: procs.launch(name, command, args, env, cwd) };
}

function fetchOnce(port: number): Promise<{ status: number; upstreamPort: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, upstreamPort: res.headers['x-upstream-port'] as string | undefined }));
    });
    req.on('error', reject);
  });
}

type Target = { name: string; port: number; proc?: Proc; start: () => Promise<void> };

function nginxConf(body: string, workers = 1, main = ''): string {
  return `worker_processes ${workers};\n${main}daemon off;\npid ${dir}/nginx-${Math.random().toString(36).slice(2)}.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
    `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path ${dir}/cb;\n` +
    `  proxy_temp_path ${dir}/pt;\n  fastcgi_temp_path ${dir}/ft;\n  uwsgi_temp_path ${dir}/ut;\n  scgi_temp_path ${dir}/st;\n${body}\n}\n`;
}

async function main(): Promise<void> {
  const [up1, up2] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'upstream.conf'), nginxConf(
    `  server {\n    listen 127.0.0.1:${up1} reuseport backlog=4096;\n    listen 127.0.0.1:${up2} reuseport backlog=4096;\n` +
    `    location / { default_type application/json; add_header X-Upstream-Port $server_port; return 200 '${BODY}'; }\n  }`,
  ));
  launch('upstream', 'nginx', ['-c', join(dir, 'upstream.conf'), '-p', dir]);
  await pollUntil(async () => (await fetchOnce(up1)).status === 200 && (await fetchOnce(up2)).status === 200, { timeoutMs: 10_000, what: 'upstream nginx' });

  const kongYml = join(dir, 'kong.yml');
  writeFileSync(kongYml, `_format_version: "3.0"\nservices:\n  - name: bench\n    host: bench.upstream\n    routes:\n      - name: all\n        paths: ["/"]\n` +
    `upstreams:\n  - name: bench.upstream\n    targets:\n      - target: 127.0.0.1:${up1}\n      - target: 127.0.0.1:${up2}\n`);

  const targets: Target[] = [];
  const add = (name: string, start: (port: number) => Proc | undefined) => {
    const t: Target = { name, port: 0, start: async () => {
      t.port = name === 'direct' ? up1 : await freePort();
      const proc = start(t.port);
      if (proc) t.proc = proc;
      await pollUntil(async () => {
        if (proc !== undefined && proc.child.exitCode !== null) throw new Error(`${name} exited; see ${join(dir, `${name}.log`)}`);
        return (await fetchOnce(t.port)).status === 200;
      }, { timeoutMs: 60_000, intervalMs: 200, what: name });
    } };
    targets.push(t);
  };
  add('direct', () => undefined);
  // nginx-w2 (two workers, as signet-w2 runs) is the reference for what a second process on
  // these two cores does to throughput and p99 (docs/benchmarks.md, "Lean client leg").
  for (const workers of [1, 2]) {
    add(`nginx-w${workers}`, (port) => {
      const conf = join(dir, `nginx-proxy-${port}.conf`);
      writeFileSync(conf, nginxConf(
        `  upstream backend { server 127.0.0.1:${up1}; server 127.0.0.1:${up2}; keepalive 256; }\n` +
        `  server {\n    listen 127.0.0.1:${port} reuseport backlog=4096;\n    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }\n  }`,
        workers,
      ));
      return launch(`nginx-w${workers}`, 'nginx', ['-c', conf, '-p', dir]);
    });
  }
  // nginx-aff-w2 and signet-aff-w2: each worker bound to its own CPU (nginx's
  // worker_cpu_affinity auto; the gateway's nginx_main_worker_cpu_affinity), which keeps the two
  // workers from queueing on one core (docs/benchmarks.md, "Lean client leg").
  add('nginx-aff-w2', (port) => {
    const conf = join(dir, `nginx-proxy-${port}.conf`);
    writeFileSync(conf, nginxConf(
      `  upstream backend { server 127.0.0.1:${up1}; server 127.0.0.1:${up2}; keepalive 256; }\n` +
      `  server {\n    listen 127.0.0.1:${port} reuseport backlog=4096;\n    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }\n  }`,
      2, 'worker_cpu_affinity auto;\n',
    ));
    return launch('nginx-aff-w2', 'nginx', ['-c', conf, '-p', dir]);
  });
  add('haproxy-t1', (port) => {
    const conf = join(dir, `haproxy-${port}.cfg`);
    writeFileSync(conf, `global\n  nbthread 1\n  maxconn 4096\ndefaults\n  mode http\n  timeout connect 5s\n  timeout client 30s\n  timeout server 30s\n  http-reuse always\n` +
      `frontend f\n  bind 127.0.0.1:${port}\n  default_backend b\nbackend b\n  balance roundrobin\n  server s1 127.0.0.1:${up1}\n  server s2 127.0.0.1:${up2}\n`);
    return launch('haproxy-t1', 'haproxy', ['-f', conf]);
  });
  add('node-hello', (port) => launch('node-hello', process.execPath, ['--import', 'tsx', 'bench/gateway/peers/node-hello.ts'], {
    PORT: String(port), UPSTREAM_PORTS: `${up1},${up2}`,
  }));
  add('undici-min', (port) => launch('undici-min', process.execPath, ['--import', 'tsx', 'bench/gateway/peers/undici-min.ts'], {
    PORT: String(port), UPSTREAMS: `http://127.0.0.1:${up1},http://127.0.0.1:${up2}`,
  }));
  for (const [prefix, cwd] of [['signet', ROOT], ...(BASELINE_DIR ? [['signet-base', BASELINE_DIR]] : [])] as const) {
    for (const workers of [1, 2]) {
      add(`${prefix}-w${workers}`, (port) => launch(`${prefix}-w${workers}`, process.execPath, [
        '--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', kongYml,
        '--proxy-listen', `127.0.0.1:${port}`, '--admin-listen', 'off', '--workers', String(workers),
      ], { LOG_LEVEL: 'warn' }, cwd));
    }
  }
  // The same build with node:cluster's SCHED_NONE (NODE_CLUSTER_SCHED_POLICY=none): the workers
  // accept from the shared listening socket themselves instead of the primary handing each
  // connection over IPC (round-robin, node's default on Linux).
  add('signet-sn-w2', (port) => launch('signet-sn-w2', process.execPath, [
    '--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', kongYml,
    '--proxy-listen', `127.0.0.1:${port}`, '--admin-listen', 'off', '--workers', '2',
  ], { LOG_LEVEL: 'warn', NODE_CLUSTER_SCHED_POLICY: 'none' }, ROOT));
  // Kong's `reuseport` listen flag, as nginx-w1 listens here: each worker binds its own socket
  // and the kernel spreads connections over them (no hand-over by the primary).
  add('signet-rp-w2', (port) => launch('signet-rp-w2', process.execPath, [
    '--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', kongYml,
    '--proxy-listen', `127.0.0.1:${port} reuseport backlog=4096`, '--admin-listen', 'off', '--workers', '2',
  ], { LOG_LEVEL: 'warn' }, ROOT));
  add('signet-aff-w2', (port) => launch('signet-aff-w2', process.execPath, [
    '--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', kongYml,
    '--proxy-listen', `127.0.0.1:${port}`, '--admin-listen', 'off', '--workers', '2', '--worker-cpu-affinity', 'auto',
  ], { LOG_LEVEL: 'warn' }, ROOT));
  add('signet-aff-rp-w2', (port) => launch('signet-aff-rp-w2', process.execPath, [
    '--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', kongYml,
    '--proxy-listen', `127.0.0.1:${port} reuseport backlog=4096`, '--admin-listen', 'off', '--workers', '2', '--worker-cpu-affinity', 'auto',
  ], { LOG_LEVEL: 'warn' }, ROOT));
  const selected = targets.filter((t) => !ONLY || ONLY.includes(t.name));

  type Row = { name: string; mode: string; round: number; rps: number; p50: number; p99: number; cpuPct: number; usPerReq: number; errors: number };
  const rows: Row[] = [];
  // Every target starts first and idles while the others are measured; rounds then go
  // target by target, so machine noise (a shared VM) spreads over all of them alike.
  for (const t of selected) {
    await t.start();
    // Round-robin check: the proxies must reach both upstream ports.
    if (t.name !== 'direct') {
      const ports = new Set<string | undefined>();
      for (let i = 0; i < 4; i++) ports.add((await fetchOnce(t.port)).upstreamPort);
      if (ports.size !== 2) throw new Error(`${t.name} does not balance over both upstreams: ${[...ports].join(',')}`);
    }
  }
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of selected) {
      for (const mode of MODES) {
        const url = `http://127.0.0.1:${t.port}/`;
        const header = mode === 'close' ? ['-H', 'Connection: close'] : [];
        spawnSync('wrk', ['-t1', `-c${CONNS}`, '-d3s', ...header, url], { stdio: 'ignore' }); // warm-up
        const pgid = t.proc?.child.pid;
        const cpu0 = pgid ? groupCpuTicks(pgid) : 0;
        const t0 = process.hrtime.bigint();
        const out = spawnSync('timeout', ['-k', '5', String(DURATION + 30), 'wrk', '-t1', `-c${CONNS}`, `-d${DURATION}s`, '--timeout', '5s', '--latency', ...header, url], { encoding: 'utf8' }).stdout;
        const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
        const cpu = pgid ? (groupCpuTicks(pgid) - cpu0) / 100 : 0;
        writeFileSync(join(dir, `wrk-${t.name}-${mode}-${round}.txt`), out);
        const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
        const ms = (label: string) => {
          const m = new RegExp(`\\s${label}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
          if (!m) return NaN;
          return Number(m[1]) * (m[2] === 'us' ? 0.001 : m[2] === 's' ? 1000 : 1);
        };
        const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
        const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
        const errors = non2xx + (sock ? Number(sock[1]) + Number(sock[3]) + Number(sock[4]) : 0);
        const total = rps * DURATION;
        const row = { name: t.name, mode, round, rps, p50: ms('50'), p99: ms('99'), cpuPct: (cpu / seconds) * 100, usPerReq: total > 0 ? (cpu * 1e6) / total : 0, errors };
        rows.push(row);
        console.log(`${t.name.padEnd(12)} ${mode.padEnd(5)} round ${round}: ${Math.round(rps).toLocaleString('en')} req/s  p50 ${row.p50.toFixed(2)} ms  p99 ${row.p99.toFixed(2)} ms  cpu ${row.cpuPct.toFixed(0)}%  ${row.usPerReq.toFixed(1)} µs/req  errors ${errors}`);
      }
    }
  }

  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const lines = [
    `wrk -t1 -c${CONNS} -d${DURATION}s, ${ROUNDS} round(s), median; loopback, 100-byte JSON upstream (nginx, 2 ports); ${new Date().toISOString()}`,
    '',
    '| name | mode | req/s | p50 ms | p99 ms | vs nginx-w1 | proxy CPU % | proxy CPU µs/req | errors |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const mode of MODES) {
    const ref = median(rows.filter((r) => r.name === 'nginx-w1' && r.mode === mode).map((r) => r.rps));
    for (const t of selected) {
      const rs = rows.filter((r) => r.name === t.name && r.mode === mode);
      if (rs.length === 0) continue;
      const rps = median(rs.map((r) => r.rps));
      lines.push(`| ${t.name} | ${mode} | ${Math.round(rps).toLocaleString('en')} | ${median(rs.map((r) => r.p50)).toFixed(2)} | ${median(rs.map((r) => r.p99)).toFixed(2)} | ` +
        `${ref ? (rps / ref).toFixed(2) : '-'} | ${t.proc ? median(rs.map((r) => r.cpuPct)).toFixed(0) : '-'} | ${t.proc ? median(rs.map((r) => r.usPerReq)).toFixed(1) : '-'} | ${rs.reduce((a, r) => a + r.errors, 0)} |`);
    }
  }
  writeFileSync(join(dir, 'results.json'), JSON.stringify(rows, null, 2));
  writeFileSync(join(dir, 'summary.md'), lines.join('\n') + '\n');
  console.log('\n' + lines.join('\n'));
  console.log(`\nlogs, configs and raw wrk output: ${dir}`);
}

try {
  await main();
} finally {
  await procs.stopAll();
}
