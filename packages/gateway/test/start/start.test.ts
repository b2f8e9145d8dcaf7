// `signet-gateway start` as a real process with a real kong.yml: it proxies, serves the admin
// API, reloads through POST /config, and stops cleanly on SIGTERM, with one process or two workers.
import assert from 'node:assert/strict';
import { spawnGateway } from '../health/gateway-process.ts';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { connect } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { test, type TestContext } from 'node:test';
import { issueCertificate, pollUntil } from '@signet/kit';
import { startProcess, testLoaderArgs } from '@signet/kit/testing';
import { request } from 'undici';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { WEAK_CERT_PEM, WEAK_KEY_PEM } from '../tls/weak-certificate.fixture.ts';
import { bindReusePort } from '../../src/listen/reuse-port-addon.ts';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
// Run from the repository root, as the gateway's relative paths expect.
const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

const kongYml = (upstreamPort: number) => `_format_version: "3.0"
services:
  - name: echo
    host: echo.upstream
    routes:
      - name: api
        paths: ["/api"]
upstreams:
  - name: echo.upstream
    targets:
      - target: 127.0.0.1:${upstreamPort}
        weight: 100
`;


async function get(url: string): Promise<{ status: number; body: string }> {
  const res = await request(url, { headers: { connection: 'close' } });
  return { status: res.statusCode, body: await res.body.text() };
}

async function writeConfig(t: TestContext, text: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-kong-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const file = join(dir, 'kong.yml');
  await writeFile(file, text);
  return file;
}

for (const workers of [1, 2]) {
  test(`start --workers ${workers}: proxies, reloads by POST /config, stops on a signal`, async (t) => {
    const first = await startUpstream(t);
    const second = await startUpstream(t);
    const file = await writeConfig(t, kongYml(first.port));
    const g = await spawnGateway(t, ['--config', file, '--proxy-listen', '127.0.0.1:0', '--admin-listen', '127.0.0.1:0', '--workers', String(workers)]);

    const res = await get(`${g.proxy}/api/hello`);
    assert.equal(res.status, 200);
    assert.equal((JSON.parse(res.body) as { url: string }).url, '/hello');
    assert.equal((await get(`${g.proxy}/other`)).status, 404);

    const root = JSON.parse((await get(`${g.admin}/`)).body) as { pids: { workers: number[] } };
    assert.equal(root.pids.workers.length, workers);
    // node:cluster starts the workers with the gateway's V8 settings on their command line (src/v8-flags.ts).
    if (workers > 1) {
      for (const pid of root.pids.workers) assert.ok((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').includes('--no-allocation-site-pretenuring'), `worker ${pid}`);
    }
    const services = JSON.parse((await get(`${g.admin}/services`)).body) as { data: { name: string }[] };
    assert.deepEqual(services.data.map((s) => s.name), ['echo']);

    // Reload: every worker moves to the new target.
    const reload = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: kongYml(second.port) });
    await reload.body.text();
    assert.equal(reload.statusCode, 201);
    await pollUntil(async () => {
      const results = await Promise.all(Array.from({ length: 6 }, () => get(`${g.proxy}/api/x`)));
      return results.every((r) => r.status === 200 && (JSON.parse(r.body) as { port: number }).port === second.port);
    }, { timeoutMs: 10_000, what: 'all workers to serve the new configuration' });

    // SIGTERM for one, SIGINT (Ctrl-C) for the other: both stop cleanly with exit code 0.
    const signal = workers === 1 ? 'SIGTERM' : 'SIGINT';
    g.proc.child.kill(signal);
    await pollUntil(() => g.proc.child.exitCode !== null, { timeoutMs: 20_000, what: `exit after ${signal}` });
    const code = await g.proc.exited;
    assert.equal(code, 0, g.proc.output());
    assert.match(g.proc.output(), new RegExp(`"signal":"${signal}"`));
    assert.match(g.proc.output(), /"msg":"stopped"/);
  });
}

test('start --workers 2: POST /config with a certificate OpenSSL refuses (512-bit RSA) is a 400 naming it; the workers keep serving', async (t) => {
  // Before, validation accepted it (the PEMs parse, the key matches): 201, then every worker died
  // building its TLS context, and each replacement died again on the same configuration.
  const upstream = await startUpstream(t);
  const file = await writeConfig(t, kongYml(upstream.port));
  const g = await spawnGateway(t, ['--config', file, '--proxy-listen', '127.0.0.1:0', '--admin-listen', '127.0.0.1:0', '--workers', '2']);
  const hashOf = async (): Promise<string> => (JSON.parse((await get(`${g.admin}/status`)).body) as { configuration_hash: string }).configuration_hash;
  const before = await hashOf();
  const block = (text: string): string => `|\n${text.trim().split('\n').map((l) => `      ${l}`).join('\n')}\n`;
  const weak = `${kongYml(upstream.port)}certificates:
  - id: 00000000-0000-4000-8000-0000000000c1
    cert: ${block(WEAK_CERT_PEM)}    key: ${block(WEAK_KEY_PEM)}    snis: [{ name: weak.test }]
`;
  const reload = await request(`${g.admin}/config`, { method: 'POST', headers: { 'content-type': 'text/yaml' }, body: weak });
  const body = JSON.parse(await reload.body.text()) as { name: string; fields: unknown };
  assert.equal(reload.statusCode, 400);
  assert.equal(body.name, 'invalid declarative configuration');
  assert.deepEqual(body.fields, { certificates: [{ '@entity': ['certificate cannot be used for TLS: error:0A00018F:SSL routines::ee key too small'] }] });
  assert.equal(await hashOf(), before);
  // Fresh connections reach both workers (round-robin): all still serve the old configuration.
  for (let i = 0; i < 6; i++) assert.equal((await get(`${g.proxy}/api/n${i}`)).status, 200);
  assert.doesNotMatch(g.proc.output(), /worker exited/);
});

/** The pids owning the listening sockets on a port (`ss -ltnp`, iproute2). */
async function listeningPids(port: number): Promise<number[]> {
  const { stdout } = await execFileAsync('ss', ['-Hltnp', `sport = :${port}`]);
  return [...stdout.matchAll(/pid=(\d+)/g)].map((m) => Number(m[1])).sort((a, b) => a - b);
}

test('start --workers 2 with the reuseport flag: each worker listens on its own socket, no hand-over by the primary', async (t) => {
  const upstream = await startUpstream(t);
  const file = await writeConfig(t, kongYml(upstream.port));
  for (const flags of ['', ' reuseport backlog=128']) {
    const probe = createNetServer().listen(0, '127.0.0.1');
    await once(probe, 'listening');
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const g = await spawnGateway(t, ['--config', file, '--proxy-listen', `127.0.0.1:${port}${flags}`, '--admin-listen', `127.0.0.1:0${flags}`, '--workers', '2']);
    const { pids } = JSON.parse((await get(`${g.admin}/`)).body) as { pids: { master: number; workers: number[] } };
    const owners = await listeningPids(port);
    if (flags === '') {
      // node:cluster's round-robin: the primary alone listens and hands connections over.
      assert.deepEqual(owners, [pids.master]);
    } else {
      assert.deepEqual(owners, [...pids.workers].sort((a, b) => a - b));
      // The admin API (one process) takes the flag without sharing its port: nothing can join it.
      const adminPort = Number(new URL(g.admin).port);
      assert.deepEqual(await listeningPids(adminPort), [pids.master]);
      assert.throws(() => bindReusePort('127.0.0.1', adminPort), { code: 'EADDRINUSE' });
    }
    // Fresh connections, each answered whichever worker's socket the kernel hands it to (the
    // spreading itself: src/listen/listen-on.test.ts).
    for (let i = 0; i < 20; i++) assert.equal((await get(`${g.proxy}/api/n${i}`)).status, 200);
    await g.proc.stop();
  }
});

test('start --workers 2 on a proxy port already taken exits 1 naming EADDRINUSE (as --workers 1 does), the workers not replaced over and over', async (t) => {
  // Before, each worker failed to listen, died and was replaced, over and over, while start ran
  // on and nothing served.
  const taken = createNetServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  t.after(() => taken.close());
  const port = (taken.address() as AddressInfo).port;
  const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', '--proxy-listen', `127.0.0.1:${port}`, '--admin-listen', 'off', '--workers', '2'], { env: { ...process.env }, cwd: ROOT });
  t.after(() => proc.stop());
  assert.equal(await proc.exited, 1);
  assert.match(proc.output(), /EADDRINUSE/);
  assert.match(proc.output(), /start failed: a worker exited before the gateway started/);
  assert.doesNotMatch(proc.output(), /starting another/);
});

test('start: a bad setting stops start with a message naming it', async (t) => {
  const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', '--proxy-listen', 'nowhere'], { env: { ...process.env }, cwd: ROOT });
  t.after(() => proc.stop());
  assert.equal(await proc.exited, 1);
  assert.match(proc.output(), /proxy_listen: invalid listen address 'nowhere'/);
});

test('start: an invalid kong.yml stops start with Kong errors and line numbers', async (t) => {
  const file = await writeConfig(t, '_format_version: "3.0"\nservices:\n  - name: s\n    port: 99999\n');
  const proc = startProcess(process.execPath, [...testLoaderArgs, CLI, 'start', '--config', file, '--proxy-listen', '127.0.0.1:0'], { env: { ...process.env }, cwd: ROOT });
  t.after(() => proc.stop());
  assert.equal(await proc.exited, 1);
  assert.match(proc.output(), /kong\.yml:\d+:\d+/);
});

test('start: KONG_* environment is read, TLS listener uses KONG_SSL_CERT and serves HTTP/2 with the http2 flag (curl --http2)', async (t) => {
  const pair = issueCertificate({ commonName: 'env-cert.test' });
  const upstream = await startUpstream(t);
  const file = await writeConfig(t, kongYml(upstream.port));
  const g = await spawnGateway(t, ['--workers', '1'], {
    KONG_DECLARATIVE_CONFIG: file,
    KONG_PROXY_LISTEN: '127.0.0.1:0, 127.0.0.1:0 http2 ssl',
    KONG_ADMIN_LISTEN: '127.0.0.1:0',
    KONG_SSL_CERT: pair.certPem,
    KONG_SSL_CERT_KEY: pair.keyPem,
  });
  const https = /proxy listening on (https:\/\/[\d.:]+)/.exec(g.proc.output())?.[1];
  assert.ok(https);
  const url = new URL(https);
  const socket = connect({ host: url.hostname, port: Number(url.port), rejectUnauthorized: false });
  t.after(() => socket.destroy());
  await once(socket, 'secureConnect');
  assert.equal(socket.getPeerCertificate().subject.CN, 'env-cert.test');
  assert.equal((await get(`${g.proxy}/api`)).status, 200);
  // An independent HTTP/2 client (curl's nghttp2) through the process's TLS listener.
  const curl = await execFileAsync('curl', ['--http2', '-sk', '-o', '/dev/null', '-w', '%{http_version} %{http_code}', `${https}/api`]);
  assert.equal(curl.stdout, '2 200');
});
