// HTTP/2 for clients (docs/gateway-config.md, "HTTP/2 for clients"): the gateway with Kong's
// `http2 ssl` listener against nginx (`listen … ssl http2`, 1 worker) in the same run, both
// proxying to the same HTTP/1.1 upstream, measured with h2load (nghttp2-client) over TLS in
// HTTP/2 and, for the same listeners, HTTP/1.1 (`h2load --h1`).
//
//   node --import tsx bench/gateway/h2.ts
//
// Env knobs: DURATION (s, default 8), ROUNDS (default 3), CLIENTS (connections, default 16),
// STREAMS (concurrent streams per HTTP/2 connection, default 8; HTTP/1.1 sends one at a time).
// Everything binds 127.0.0.1; every process started is stopped at the end (its process group).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { issueCertificate, pollUntil } from '@signet/kit';
import { BenchProcesses, freePort, groupCpuTicks } from './bench-processes.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DURATION = Number(process.env.DURATION ?? 8);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const CLIENTS = Number(process.env.CLIENTS ?? 16);
const STREAMS = Number(process.env.STREAMS ?? 8);
const dir = mkdtempSync(join(tmpdir(), 'signet-bench-h2-'));
const procs = new BenchProcesses(dir, ROOT);
const BODY = JSON.stringify({ ok: true, service: 'bench-upstream', padding: 'x'.repeat(54) });
const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] });
writeFileSync(join(dir, 'cert.pem'), cert.certPem);
writeFileSync(join(dir, 'key.pem'), cert.keyPem);

const nginxConf = (body: string): string =>
  `worker_processes 1;\ndaemon off;\npid ${dir}/nginx-${Math.random().toString(36).slice(2)}.pid;\nerror_log ${dir}/nginx-error.log warn;\n` +
  `events { worker_connections 8192; }\nhttp {\n  access_log off;\n  keepalive_requests 1000000;\n  http2_max_requests 1000000;\n  client_body_temp_path ${dir}/cb;\n` +
  `  proxy_temp_path ${dir}/pt;\n  fastcgi_temp_path ${dir}/ft;\n  uwsgi_temp_path ${dir}/ut;\n  scgi_temp_path ${dir}/st;\n${body}\n}\n`;

/** One h2load run: requests per second and whether every request succeeded. */
function h2load(port: number, mode: 'h2' | 'h1', seconds: number): { rps: number; failed: number; out: string } {
  const args = ['-D', String(seconds), '-c', String(CLIENTS), '-m', String(mode === 'h2' ? STREAMS : 1), '-t', '1', ...(mode === 'h1' ? ['--h1'] : []), `https://127.0.0.1:${port}/`];
  const out = spawnSync('timeout', ['-k', '5', String(seconds + 30), 'h2load', ...args], { encoding: 'utf8' }).stdout;
  const rps = Number(/finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(out)?.[1] ?? 0);
  const m = /requests: \d+ total, \d+ started, \d+ done, (\d+) succeeded, (\d+) failed, (\d+) errored/.exec(out);
  return { rps, failed: m ? Number(m[2]) + Number(m[3]) : -1, out };
}

async function main(): Promise<void> {
  // Without the tools every poll below would only time out, naming the wrong cause.
  for (const tool of ['h2load', 'nginx']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      throw new Error(`${tool} is not installed: node scripts/setup.mjs --for bench installs it`);
    }
  }
  const up = await freePort();
  writeFileSync(join(dir, 'upstream.conf'), nginxConf(
    `  server {\n    listen 127.0.0.1:${up} reuseport backlog=4096;\n    location / { default_type application/json; return 200 '${BODY}'; }\n  }`,
  ));
  procs.launch('upstream', 'nginx', ['-c', join(dir, 'upstream.conf'), '-p', dir], {}, ROOT);
  const kongYml = join(dir, 'kong.yml');
  writeFileSync(kongYml, `_format_version: "3.0"\nservices:\n  - name: bench\n    url: http://127.0.0.1:${up}\n    routes:\n      - name: all\n        paths: ["/"]\n`);

  const targets: { name: string; port: number; pgid: number }[] = [];
  const nginxPort = await freePort();
  writeFileSync(join(dir, 'nginx-h2.conf'), nginxConf(
    `  upstream backend { server 127.0.0.1:${up}; keepalive 256; }\n` +
    `  server {\n    listen 127.0.0.1:${nginxPort} ssl http2 reuseport backlog=4096;\n    ssl_certificate ${dir}/cert.pem;\n    ssl_certificate_key ${dir}/key.pem;\n` +
    `    location / { proxy_pass http://backend; proxy_http_version 1.1; proxy_set_header Connection ""; }\n  }`,
  ));
  targets.push({ name: 'nginx-w1', port: nginxPort, pgid: procs.launch('nginx-w1', 'nginx', ['-c', join(dir, 'nginx-h2.conf'), '-p', dir], {}, ROOT).pid! });
  for (const workers of [1, 2]) {
    const port = await freePort();
    const child = procs.launch(`signet-w${workers}`, process.execPath, [
      '--import', 'tsx', 'packages/gateway/src/cli.ts', 'start', '--config', kongYml,
      '--proxy-listen', `127.0.0.1:${port} http2 ssl`, '--admin-listen', 'off', '--workers', String(workers),
    ], { LOG_LEVEL: 'warn', KONG_SSL_CERT: cert.certPem, KONG_SSL_CERT_KEY: cert.keyPem }, ROOT);
    targets.push({ name: `signet-w${workers}`, port, pgid: child.pid! });
  }
  for (const t of targets) {
    await pollUntil(() => h2load(t.port, 'h2', 1).rps > 0, { timeoutMs: 60_000, intervalMs: 500, what: `${t.name} answering over HTTP/2` });
  }

  type Row = { name: string; mode: string; rps: number; usPerReq: number; failed: number };
  const rows: Row[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) {
      for (const mode of ['h2', 'h1'] as const) {
        h2load(t.port, mode, 2); // warm-up
        const cpu0 = groupCpuTicks(t.pgid);
        const r = h2load(t.port, mode, DURATION);
        const cpu = (groupCpuTicks(t.pgid) - cpu0) / 100;
        writeFileSync(join(dir, `h2load-${t.name}-${mode}-${round}.txt`), r.out);
        const row = { name: t.name, mode, rps: r.rps, usPerReq: r.rps > 0 ? (cpu * 1e6) / (r.rps * DURATION) : 0, failed: r.failed };
        rows.push(row);
        console.log(`${t.name.padEnd(10)} ${mode} round ${round}: ${Math.round(r.rps).toLocaleString('en')} req/s  ${row.usPerReq.toFixed(1)} µs/req  failed ${r.failed}`);
      }
    }
  }
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  const lines = [
    `h2load -c${CLIENTS} (-m${STREAMS} for h2), ${DURATION} s, ${ROUNDS} round(s), medians; TLS on loopback, 100-byte JSON upstream (nginx); ${new Date().toISOString()}`,
    '',
    '| name | protocol | req/s | vs nginx-w1 (same protocol) | proxy CPU µs/req | vs nginx-w1 | failed |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const mode of ['h2', 'h1']) {
    const ref = rows.filter((r) => r.name === 'nginx-w1' && r.mode === mode);
    const refRps = median(ref.map((r) => r.rps));
    const refUs = median(ref.map((r) => r.usPerReq));
    for (const t of targets) {
      const rs = rows.filter((r) => r.name === t.name && r.mode === mode);
      const rps = median(rs.map((r) => r.rps));
      const us = median(rs.map((r) => r.usPerReq));
      lines.push(`| ${t.name} | ${mode === 'h2' ? 'HTTP/2' : 'HTTP/1.1'} | ${Math.round(rps).toLocaleString('en')} | ${(rps / refRps).toFixed(2)} | ${us.toFixed(1)} | ${(us / refUs).toFixed(2)} | ${rs.reduce((a, r) => a + r.failed, 0)} |`);
    }
  }
  writeFileSync(join(dir, 'summary.md'), lines.join('\n') + '\n');
  console.log('\n' + lines.join('\n'));
  console.log(`\nlogs, configs and raw h2load output: ${dir}`);
}

try {
  await main();
} finally {
  await procs.stopAll();
}
