import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { pollUntil } from '@signet/kit';
import { descendantsOf, listenOnLoopback, startProcess } from '@signet/kit/testing';
import { freePorts } from './support/free-ports.ts';
import { alive, killLeft } from './support/processes.ts';
import { npmStart } from './support/start-system.ts';

const repoRoot = join(import.meta.dirname, '../../..');

async function systemEnv(dataDir: string) {
  const [http, https, admin, e1, e2] = await freePorts(5);
  return {
    ports: { http, https, admin, e1, e2 },
    env: { ...process.env, DATA_DIR: dataDir, GATEWAY_HTTP_PORT: String(http), GATEWAY_HTTPS_PORT: String(https), GATEWAY_ADMIN_PORT: String(admin), ESIGN_PORTS: `${e1},${e2}` },
  };
}

test('`npm start`: URLs printed once every part answers, readable logs without probe noise, clean stop on SIGINT', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-start-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const { ports, env: base } = await systemEnv(dataDir);
  // An operator who exported an admin token: the gateway demands it, and start still comes up
  // (its own readiness probe sends it).
  const adminToken = 'e3b0c44298fc1c149afbf4c8996fb924';
  const env = { ...base, KONG_ADMIN_TOKEN: adminToken };
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts'], { cwd: repoRoot, env });
  let started: number[] = [];
  t.after(async () => {
    await proc.stop(40_000);
    killLeft(started);
  });
  await pollUntil(() => proc.output().includes('Ctrl-C stops everything'), { timeoutMs: 90_000, what: 'start-up banner' });
  started = descendantsOf(proc.child.pid!);
  const out = proc.output();
  assert.match(out, new RegExp(`public URL +https://localhost:${ports.https}\\n`));
  assert.match(out, new RegExp(`console +https://localhost:${ports.https}/console\\n`));
  assert.match(out, new RegExp(`admin API +http://127\\.0\\.0\\.1:${ports.admin}`));
  const caPath = join(dataDir, 'tls', 'ca.pem');
  assert.ok(existsSync(caPath));
  assert.ok(out.includes(`NODE_EXTRA_CA_CERTS=${caPath}`));

  // "ready" means ready: right after the banner the https listener answers through to esign,
  // with a certificate the printed CA vouches for.
  const trusting = new Agent({ connect: { ca: readFileSync(caPath, 'utf8') } });
  t.after(() => trusting.close());
  const health = await request(`https://localhost:${ports.https}/health`, { dispatcher: trusting });
  assert.equal(health.statusCode, 200);
  assert.deepEqual(await health.body.json(), { status: 'ok' });
  // The URLs come after the parts said they listen.
  assert.ok(out.indexOf('Server listening') < out.indexOf('public URL'), 'esign was up before the banner');
  // Private data (kong.yml holds the TLS key; the SQLite files every envelope): owner only.
  const modeOf = (path: string) => (statSync(join(dataDir, path)).mode & 0o777).toString(8);
  assert.equal(modeOf('.'), '700');
  assert.deepEqual(['kong.yml', 'esign.sqlite', 'esign.sqlite-wal', 'esign.sqlite-shm', 'tls/localhost-key.pem', 'tls/ca-key.pem'].map((f) => `${f} ${modeOf(f)}`),
    ['kong.yml 600', 'esign.sqlite 600', 'esign.sqlite-wal 600', 'esign.sqlite-shm 600', 'tls/localhost-key.pem 600', 'tls/ca-key.pem 600']);

  // Let the active checker probe a few times (interval 1-2 s per target), then look at the logs.
  const admin = `http://127.0.0.1:${ports.admin}`;
  await pollUntil(async () => {
    const res = await request(`${admin}/upstreams/esign.upstream/health`, { headers: { 'kong-admin-token': adminToken } });
    const body = (await res.body.json()) as { data: { health: string }[] };
    return body.data.length === 2 && body.data.every((d) => d.health === 'HEALTHY');
  }, { timeoutMs: 20_000, what: 'both esign targets HEALTHY' });
  // deploy/kong.yml's correlation-id: the id the client gets back is on esign's line for the request.
  const missing = await request(`http://127.0.0.1:${ports.http}/oauth/does-not-exist`);
  await missing.body.dump();
  const correlationId = missing.headers['x-correlation-id'];
  assert.equal(typeof correlationId, 'string', 'the gateway echoes the correlation id');
  const logged = new RegExp(`GET /oauth/does-not-exist 404 .*correlationId=${(correlationId as string).replace(/[#.]/g, '\\$&')}`);
  await pollUntil(() => logged.test(proc.output()), { timeoutMs: 10_000, what: 'the request in the log, with its correlation id' });
  // deploy/kong.yml's prometheus: Kong's families on the admin API, by service and route (the
  // workers report their series to the primary now and then, so the request shows up shortly).
  await pollUntil(async () => {
    const metrics = await request(`${admin}/metrics`, { headers: { 'kong-admin-token': adminToken } });
    assert.equal(metrics.statusCode, 200);
    return /^kong_http_requests_total\{service="esign",route="oauth",code="404",source="service"/m.test(await metrics.body.text());
  }, { timeoutMs: 10_000, what: 'the request in Kong\'s metrics' });
  const withoutToken = await request(`${admin}/status`);
  await withoutToken.body.dump();
  assert.equal(withoutToken.statusCode, 401, 'the token is required');
  const lines = proc.output().split('\n').filter((l) => l !== '');
  for (const line of lines) {
    assert.match(line, /^(system|esign-1|esign-2|gateway) +\| /, `every line names its part: ${line}`);
    assert.doesNotMatch(line, /\| \{"level"/, `no raw pino JSON: ${line}`);
  }
  assert.ok(lines.some((l) => /^esign-\d +\| \d\d:\d\d:\d\d\.\d{3} INFO {2}Server listening at http:\/\/127\.0\.0\.1:\d+$/.test(l)));
  assert.ok(!lines.some((l) => l.includes('/health 200')), 'successful health probes are not logged');

  proc.child.kill('SIGINT');
  assert.equal(await proc.exited, 0);
  assert.match(proc.output(), /system +\| stopped$/m);
});

test('`npm start` with a port already taken: exits 1 naming the port and its setting, starts nothing', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-start-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const squatter = createServer();
  const taken = await listenOnLoopback(squatter);
  t.after(() => new Promise<void>((resolve) => squatter.close(() => resolve())));
  const { env } = await systemEnv(dataDir);
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts'], { cwd: repoRoot, env: { ...env, GATEWAY_HTTPS_PORT: String(taken) } });
  t.after(() => proc.stop());
  assert.equal(await proc.exited, 1);
  assert.match(proc.output(), new RegExp(`signet: port ${taken} \\(GATEWAY_HTTPS_PORT\\) is already in use on 127\\.0\\.0\\.1`));
  assert.doesNotMatch(proc.output(), /esign-1 +\|/);
});

test('`npm start` with a bad setting: exits 2 naming it', async () => {
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts'], { cwd: repoRoot, env: { ...process.env, ESIGN_PORTS: '3001,x' } });
  assert.equal(await proc.exited, 2);
  assert.match(proc.output(), /signet: ESIGN_PORTS\[1\] must be a port number/);
});

test('`npm start` when a part dies while starting (database unreachable): exits 1 with the part and its error', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-start-'));
  t.after(() => rmSync(dataDir, { recursive: true, force: true }));
  const { env } = await systemEnv(dataDir);
  const [closed] = await freePorts(1);
  const proc = startProcess(process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts'], { cwd: repoRoot, env: { ...env, DATABASE_URL: `postgres://postgres@127.0.0.1:${closed}/signet` } });
  t.after(() => proc.stop());
  assert.equal(await proc.exited, 1);
  assert.match(proc.output(), /esign-\d +\| signet-esign: Error: connect ECONNREFUSED/);
  assert.match(proc.output(), /system +\| start failed: esign-\d exited unexpectedly \(code 1\)/);
  assert.doesNotMatch(proc.output(), /Ctrl-C stops everything/);
});

const supervisorOnly: [string, string[]] = [process.execPath, ['--import', 'tsx', 'packages/system/src/main.ts']];

// How the system is stopped, and what its log must then say. Each part leads its own process
// group (so a terminal's Ctrl-C reaches only npm and the supervisor) and stops by itself when the
// supervisor is gone; every process started below npm must be gone afterwards.
const STOPS: { name: string; command: [string, string[]]; stop: (launcher: number) => void; log: RegExp[] }[] = [
  {
    name: 'a SIGTERM to the npm process alone',
    command: npmStart,
    stop: (launcher) => process.kill(launcher, 'SIGTERM'),
    log: [/system +\| SIGTERM: stopping/, /system +\| stopped$/m],
  },
  {
    // A terminal signals its whole foreground group; npm forwards its copy too, and one Ctrl-C
    // must not count as two.
    name: 'Ctrl-C in a terminal (SIGINT to the whole foreground group)',
    command: npmStart,
    stop: (launcher) => process.kill(-launcher, 'SIGINT'),
    log: [/system +\| SIGINT: stopping/, /system +\| stopped$/m],
  },
  {
    name: 'the supervisor killed with SIGKILL',
    command: supervisorOnly,
    stop: (launcher) => process.kill(launcher, 'SIGKILL'),
    log: [],
  },
];

for (const how of STOPS) {
  test(`npm start stopped by ${how.name}: every part stops, nothing is left`, async (t) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signet-start-'));
    t.after(() => rmSync(dataDir, { recursive: true, force: true }));
    const { env } = await systemEnv(dataDir);
    // Detached: its own process group, as a terminal gives a foreground job.
    const proc = startProcess(how.command[0], how.command[1], { cwd: repoRoot, env, detached: true });
    let started: number[] = [];
    t.after(async () => {
      killLeft([proc.child.pid!, ...started]);
      await proc.exited;
    });
    // Fail at once, with what it said, if it gave up (say, a port taken meanwhile by another test).
    const gaveUp = proc.exited.then((code) => Promise.reject(new Error(`npm start exited ${code} before its banner:\n${proc.output()}`)));
    gaveUp.catch(() => {});
    await Promise.race([pollUntil(() => proc.output().includes('Ctrl-C stops everything'), { timeoutMs: 120_000, what: 'start-up banner' }), gaveUp]);
    started = descendantsOf(proc.child.pid!);
    assert.ok(started.length >= 5, `npm start runs its parts (found ${started.length} processes)`);

    how.stop(proc.child.pid!);
    await proc.exited;
    await pollUntil(() => started.every((pid) => !alive(pid)), { timeoutMs: 30_000, what: 'every process npm start ran to exit' });
    const out = proc.output();
    for (const line of how.log) assert.match(out, line);
    if (how.log.length > 0) {
      assert.doesNotMatch(out, /again: killing/, 'one Ctrl-C is one stop request');
      // Ordered: the gateway stops taking traffic before the esign instances are told to stop.
      const gatewayStopped = out.search(/gateway +\| .*stopped/);
      assert.ok(gatewayStopped >= 0 && gatewayStopped < out.search(/esign-\d +\| .*stopping/), `gateway stopped before esign:\n${out}`);
    }
  });
}
