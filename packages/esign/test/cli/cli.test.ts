import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { startProcess, testLoaderEnv, type StartedProcess } from '@signet/kit/testing';
import { request } from 'undici';
import { sha256Hex } from '../../src/security/secret-token.ts';
import { MIGRATIONS, openStore } from '../../src/store/index.ts';
import { startPostgresCluster } from '../support/postgres-cluster.ts';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../bin/signet-esign.mjs');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

type Run = { code: number; stdout: string; stderr: string };

function cli(args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 120_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'signet-cli-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Starts `signet-esign serve` on a free port and resolves with its URL once it listens. */
async function serve(t: TestContext, env: Record<string, string>): Promise<{ proc: StartedProcess; url: string }> {
  // The bin as it ships (tsx); its pdf thread boots with npm test's hooks (SIGNET_TS_HOOKS).
  const proc = startProcess(process.execPath, [BIN, 'serve'], { env: { PATH: process.env.PATH ?? '', ...testLoaderEnv(), PORT: '0', HOST: '127.0.0.1', ...env } });
  t.after(() => proc.stop());
  const url = await pollUntil(() => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(proc.output())?.[1], { timeoutMs: 90_000, what: 'serve to listen' })
    .catch((err: unknown) => {
      throw new Error(`serve did not start; its output:\n${proc.output()}`, { cause: err });
    });
  return { proc, url };
}

async function health(url: string): Promise<{ status: number; body: unknown }> {
  // A fresh connection each time: a pooled one the server closed while idle (its keep-alive
  // timeout passes while a PostgreSQL cluster stops) fails as "other side closed".
  const res = await request(`${url}/health`, { reset: true, headers: { connection: 'close' } });
  return { status: res.statusCode, body: await res.body.json() };
}

/**
 * Polls /health until it answers 200: a fresh instance answers 503 {status: 'starting'} while it
 * warms its pdf threads. Then, from the server's own log (in order): the warm-up line came before
 * any 200, so the balancer never got the instance before its first envelope could be fast.
 */
async function healthWhenWarm(s: { proc: StartedProcess; url: string }): Promise<{ status: number; body: unknown }> {
  const answer = await pollUntil(async () => {
    const h = await health(s.url);
    if (h.status === 503) assert.deepEqual(h.body, { status: 'starting' });
    return h.status === 503 ? undefined : h;
  }, { timeoutMs: 90_000, what: `${s.url}/health to answer 200` });
  const lines = () => s.proc.output().split('\n');
  const firstOk = await pollUntil(() => { const i = lines().findIndex((l) => l.includes('"statusCode":200')); return i < 0 ? undefined : i; }, { timeoutMs: 10_000, what: 'the first 200 in the log' });
  const warmLine = lines().findIndex((l) => l.includes('warm: pdf threads started'));
  assert.ok(warmLine >= 0 && warmLine < firstOk, `the warm-up is logged before the first 200; the log:\n${s.proc.output()}`);
  assert.match(lines()[warmLine] ?? '', /"warmUpMs":\d+/);
  return answer;
}

test('user create and app create print the documented JSON; errors exit non-zero with a clear message', async (t) => {
  const dataDir = tempDir(t);
  const env = { DATA_DIR: dataDir, PUBLIC_URL: 'https://localhost:8443/' };
  const user = await cli(['user', 'create', '--email', 'Ada@Example.com', '--password', 'correct horse', '--name', 'Ada Lovelace'], env);
  assert.equal(user.code, 0, user.stderr);
  const created = JSON.parse(user.stdout) as { userId: string; accountId: string };
  assert.deepEqual(Object.keys(created).sort(), ['accountId', 'userId']);
  assert.match(created.userId, UUID);
  assert.match(created.accountId, UUID);

  const again = await cli(['user', 'create', '--email', 'ada@example.com', '--password', 'correct horse', '--name', 'Ada'], env);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /USER_ALREADY_EXISTS/);
  const short = await cli(['user', 'create', '--email', 'b@example.com', '--password', 'short', '--name', 'B'], env);
  assert.equal(short.code, 1);
  assert.match(short.stderr, /INVALID_PASSWORD/);

  const keyFile = join(dataDir, 'public.pem');
  writeFileSync(keyFile, generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }));
  const app = await cli(['app', 'create', '--user', 'ada@example.com', '--name', 'My app', '--redirect-uri', 'http://localhost:3000/cb', '--redirect-uri', 'https://app.example/cb', '--rsa-public-key', keyFile], env);
  assert.equal(app.code, 0, app.stderr);
  const out = JSON.parse(app.stdout) as Record<string, string>;
  assert.match(out.integrationKey ?? '', UUID);
  assert.match(out.secretKey ?? '', /^[A-Za-z0-9_-]{43}$/);
  assert.equal(out.accountId, created.accountId);
  assert.equal(out.baseUri, 'https://localhost:8443', 'no trailing slash');
  assert.equal(out.authUrl, 'https://localhost:8443');
  assert.equal(out.authHost, 'localhost:8443');

  // What the command stored: the secret's hash only, both redirect URIs, the key.
  const store = await openStore({ sqliteFile: join(dataDir, 'esign.sqlite') });
  t.after(() => store.close());
  assert.deepEqual(await store.apps.liveSecretHashes(out.integrationKey ?? ''), [sha256Hex(out.secretKey ?? '')]);
  assert.deepEqual((await store.apps.redirectUris(out.integrationKey ?? '')).sort(), ['http://localhost:3000/cb', 'https://app.example/cb']);
  assert.equal((await store.apps.liveRsaKeys(out.integrationKey ?? '')).length, 1);

  const cases: Array<[string[], number, RegExp]> = [
    [['app', 'create', '--user', 'nobody@example.com', '--name', 'X', '--redirect-uri', 'http://localhost/cb'], 1, /USER_NOT_FOUND/],
    [['app', 'create', '--user', 'ada@example.com', '--name', 'X', '--redirect-uri', 'http://evil.example/cb'], 1, /INVALID_REDIRECT_URI/],
    [['app', 'create', '--user', 'ada@example.com', '--name', 'X'], 2, /at least one --redirect-uri/],
    [['app', 'create', '--user', 'ada@example.com', '--name', 'X', '--redirect-uri', 'http://localhost/cb', '--rsa-public-key', join(dataDir, 'missing.pem')], 2, /cannot read --rsa-public-key/],
    [['user', 'create', '--email', 'x@example.com', '--bogus', 'y'], 2, /usage:/],
    [['frobnicate'], 2, /unknown command/],
  ];
  for (const [args, code, message] of cases) {
    const res = await cli(args, env);
    assert.equal(res.code, code, `${args.join(' ')}: ${res.stderr}`);
    assert.match(res.stderr, message);
  }
  const badUrl = await cli(['user', 'create', '--email', 'c@example.com', '--password', 'long enough', '--name', 'C'], { ...env, PUBLIC_URL: 'ftp://x' });
  assert.equal(badUrl.code, 1);
  assert.match(badUrl.stderr, /bad setting: PUBLIC_URL must use https: or http:/);
});

test('two `serve` processes started at once on one fresh SQLite file both migrate safely and serve; each says at start which PAdES level its seals reach; /health answers 200 only once its pdf threads are warm', async (t) => {
  const dataDir = tempDir(t);
  const env = { DATA_DIR: dataDir, PUBLIC_URL: 'https://localhost:8443' };
  // b has a timestamp authority (not contacted at start); a has none.
  const withTsa = { ...env, TSA_URL: 'http://127.0.0.1:9/rfc3161', TSA_USERNAME: 'acme', TSA_PASSWORD: 'tsa-password-not-logged' };
  const [a, b] = await Promise.all([serve(t, env), serve(t, withTsa)]);
  await pollUntil(() => /seals are PAdES B-B: TSA_URL is unset/.test(a.proc.output()), { timeoutMs: 30_000, what: 'the B-B line at start' });
  assert.match(a.proc.output(), /"sealLevel":"B-B"/);
  await pollUntil(() => /seals are raised to PAdES B-LTA with the TSA at TSA_URL/.test(b.proc.output()), { timeoutMs: 30_000, what: 'the B-LTA line at start' });
  assert.match(b.proc.output(), /"sealLevel":"B-LTA","tsa":"http:\/\/127\.0\.0\.1:9"/);
  assert.ok(!b.proc.output().includes('tsa-password-not-logged'), 'the TSA credentials are never logged');
  assert.deepEqual(await healthWhenWarm(a), { status: 200, body: { status: 'ok' } });
  assert.deepEqual(await healthWhenWarm(b), { status: 200, body: { status: 'ok' } });
  const store = await openStore({ sqliteFile: join(dataDir, 'esign.sqlite') });
  t.after(() => store.close());
  const versions = await store.db.kysely.selectFrom('signet_migrations').select('version').execute();
  assert.deepEqual(versions.map((v) => Number(v.version)).sort((x, y) => x - y), MIGRATIONS.map((m) => m.version), 'each version applied once');
  // A user created by the CLI beside the running instances is visible to both at once.
  const user = await cli(['user', 'create', '--email', 'x@example.com', '--password', 'long enough', '--name', 'X'], env);
  assert.equal(user.code, 0, user.stderr);
  assert.equal(await a.proc.stop(), 0);
  assert.equal(await b.proc.stop(), 0);
});

test('serve and the CLI on PostgreSQL (DATABASE_URL); /health turns 503 when the database goes away', async (t) => {
  const cluster = await startPostgresCluster();
  let clusterUp = true;
  t.after(() => clusterUp && cluster.stop());
  const env = { DATA_DIR: tempDir(t), DATABASE_URL: cluster.url(), PUBLIC_URL: 'http://127.0.0.1:1' };
  const [a, b] = await Promise.all([serve(t, env), serve(t, env)]);
  const user = await cli(['user', 'create', '--email', 'pg@example.com', '--password', 'long enough', '--name', 'Pg'], env);
  assert.equal(user.code, 0, user.stderr);
  assert.deepEqual(await healthWhenWarm(a), { status: 200, body: { status: 'ok' } });
  assert.deepEqual(await healthWhenWarm(b), { status: 200, body: { status: 'ok' } });
  cluster.stop();
  clusterUp = false;
  assert.deepEqual(await health(a.url), { status: 503, body: { status: 'unavailable' } });
});
