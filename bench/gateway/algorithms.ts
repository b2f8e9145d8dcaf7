// Balancer algorithm benchmark: one `signet-gateway start --workers 1` per upstream algorithm
// (round-robin, consistent-hashing on a header and on the client ip, least-connections,
// latency) in front of the same nginx upstream (2 ports), plus round-robin with the JSON access
// log on. wrk keep-alive, interleaved rounds; req/s and the gateway's CPU µs per request (robust
// to a machine loaded by others).
//
//   node --import tsx bench/gateway/algorithms.ts      (env: DURATION s, default 5; ROUNDS, default 3; CONNS, default 32)
//
// Every process started here runs in its own process group and is stopped at the end.
import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { BenchProcesses, freePort, groupCpuTicks } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 5);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CONNS = Number(process.env.CONNS ?? 32);
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-algo-'));
const BODY = JSON.stringify({ ok: true, service: 'bench-upstream', padding: 'x'.repeat(54) });
const procs = new BenchProcesses(dir, ROOT);
const launch = procs.launch.bind(procs);

function status(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path: '/', agent: false, headers: { 'x-user': 'bench' } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
  });
}

const VARIANTS: { name: string; upstream: string; env?: Record<string, string> }[] = [
  { name: 'round-robin', upstream: 'algorithm: round-robin' },
  { name: 'ch-header', upstream: 'algorithm: consistent-hashing\n    hash_on: header\n    hash_on_header: x-user' },
  { name: 'ch-ip', upstream: 'algorithm: consistent-hashing\n    hash_on: ip' },
  { name: 'least-conn', upstream: 'algorithm: least-connections' },
  { name: 'latency', upstream: 'algorithm: latency' },
  { name: 'rr+accesslog', upstream: 'algorithm: round-robin', env: { KONG_PROXY_ACCESS_LOG: 'on' } },
];

async function main(): Promise<void> {
  const [up1, up2] = [await freePort(), await freePort()];
  writeFileSync(join(dir, 'upstream.conf'), `worker_processes 1;\ndaemon off;\npid ${dir}/nginx.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
    `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n  client_body_temp_path ${dir}/cb;\n` +
    `  proxy_temp_path ${dir}/pt;\n  fastcgi_temp_path ${dir}/ft;\n  uwsgi_temp_path ${dir}/ut;\n  scgi_temp_path ${dir}/st;\n` +
    `  server {\n    listen 127.0.0.1:${up1};\n    listen 127.0.0.1:${up2};\n    location / { default_type application/json; return 200 '${BODY}'; }\n  }\n}\n`);
  launch('upstream', 'nginx', ['-c', join(dir, 'upstream.conf'), '-p', dir]);
  await pollUntil(async () => (await status(up1)) === 200 && (await status(up2)) === 200, { timeoutMs: 10_000, what: 'upstream nginx' });

  const gateways: { name: string; port: number; child: ChildProcess }[] = [];
  for (const v of VARIANTS) {
    const yml = join(dir, `${v.name}.yml`);
    writeFileSync(yml, `_format_version: "3.0"\nservices:\n  - name: bench\n    host: bench.upstream\n    routes:\n      - name: all\n        paths: ["/"]\n` +
      `upstreams:\n  - name: bench.upstream\n    ${v.upstream}\n    targets:\n      - target: 127.0.0.1:${up1}\n      - target: 127.0.0.1:${up2}\n`);
    const port = await freePort();
    const child = launch(v.name, process.execPath, ['--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', yml,
      '--proxy-listen', `127.0.0.1:${port}`, '--admin-listen', 'off', '--workers', '1'], { KONG_PROXY_ACCESS_LOG: 'off', ...v.env });
    await pollUntil(async () => {
      if (child.exitCode !== null) throw new Error(`${v.name} exited; see ${join(dir, `${v.name}.log`)}`);
      return (await status(port).catch(() => 0)) === 200;
    }, { timeoutMs: 60_000, intervalMs: 200, what: v.name });
    gateways.push({ name: v.name, port, child });
  }

  const results = new Map<string, { rps: number[]; us: number[] }>();
  const load: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const g of gateways) {
      const url = `http://127.0.0.1:${g.port}/`;
      const args = ['-t1', `-c${CONNS}`, '-H', 'x-user: bench'];
      spawnSync('wrk', [...args, '-d2s', url], { stdio: 'ignore' });
      const cpu0 = groupCpuTicks(g.child.pid!);
      const out = spawnSync('timeout', ['-k', '5', String(DURATION + 30), 'wrk', ...args, `-d${DURATION}s`, url], { encoding: 'utf8' }).stdout;
      const cpu = (groupCpuTicks(g.child.pid!) - cpu0) / 100;
      load.push(loadavg()[0]!);
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
      if (/Non-2xx/.test(out)) throw new Error(`${g.name}: non-2xx responses\n${out}`);
      const r = results.get(g.name) ?? { rps: [], us: [] };
      r.rps.push(rps);
      r.us.push((cpu * 1e6) / (rps * DURATION));
      results.set(g.name, r);
      console.log(`${g.name.padEnd(13)} round ${round}: ${Math.round(rps).toLocaleString('en')} req/s  ${r.us.at(-1)!.toFixed(1)} µs/req`);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const base = results.get('round-robin')!;
  console.log(`\nwrk -t1 -c${CONNS} -d${DURATION}s keep-alive, ${ROUNDS} interleaved rounds, medians; load average during runs ${Math.min(...load).toFixed(1)}–${Math.max(...load).toFixed(1)} (2 cores)`);
  console.log('| variant | req/s | vs round-robin | gateway CPU µs/req | vs round-robin |');
  console.log('|---|---|---|---|---|');
  for (const [name, r] of results) {
    console.log(`| ${name} | ${Math.round(median(r.rps)).toLocaleString('en')} | ${(median(r.rps) / median(base.rps)).toFixed(2)} | ${median(r.us).toFixed(1)} | ${(median(r.us) / median(base.us)).toFixed(2)} |`);
  }
}

try {
  await main();
} finally {
  await procs.stopAll();
}
