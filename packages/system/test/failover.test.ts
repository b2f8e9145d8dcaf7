import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { pollUntil } from '@signet/kit';
import { startProcess, type StartedProcess } from '@signet/kit/testing';
import { buildSystemPlan, ensureDevTls, loadSystemConfig, renderKongYml, type ProcessSpec } from '../src/index.ts';
import { waitUntilReady } from '../src/wait-until-ready.ts';
import { freePorts } from './support/free-ports.ts';
import { esignCli, repoRoot } from './support/start-system.ts';
import { tokenViaForms } from './support/token-via-forms.ts';

const UPSTREAM = 'esign.upstream';
const PACE_MS = 200;

// The supervisor of `npm start` stops the whole system when a part dies (fail fast, see
// docs/operations.md); this test runs the same plan's parts itself so it can kill and restart one.
test('failover: one esign instance killed mid-flow; requests keep succeeding, the admin API shows it UNHEALTHY, then HEALTHY once restarted', async (t) => {
  const teardown: (() => unknown)[] = [];
  t.after(async () => {
    for (const step of teardown.reverse()) await step();
  });
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-failover-'));
  teardown.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const [e1, e2, http, https, admin] = (await freePorts(5)) as [number, number, number, number, number];
  const config = loadSystemConfig({
    DATA_DIR: dataDir, ESIGN_PORTS: `${e1},${e2}`, PUBLIC_URL: `https://localhost:${https}`,
    GATEWAY_HTTP_PORT: String(http), GATEWAY_HTTPS_PORT: String(https), GATEWAY_ADMIN_PORT: String(admin),
  }, repoRoot);
  const tls = ensureDevTls(dataDir);
  const kongYml = join(dataDir, 'kong.yml');
  // deploy/kong.yml as `npm start` renders it: active checks on /health, passive checks, retries.
  writeFileSync(kongYml, renderKongYml(readFileSync(join(repoRoot, 'deploy/kong.yml'), 'utf8'), { esignPorts: config.esignPorts, certPem: readFileSync(tls.certPath, 'utf8'), keyPem: readFileSync(tls.keyPath, 'utf8') }));
  const plan = buildSystemPlan(config, tls, kongYml, repoRoot);
  const run = (spec: ProcessSpec): StartedProcess => {
    const proc = startProcess(spec.command, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env } });
    teardown.push(() => proc.stop(15_000));
    return proc;
  };
  const procs = new Map(plan.parts.map((spec) => [spec.name, run(spec)]));
  const ready = await waitUntilReady([
    { part: 'esign-1', url: `http://127.0.0.1:${e1}/health` },
    { part: 'esign-2', url: `http://127.0.0.1:${e2}/health` },
    { part: 'gateway', url: `http://127.0.0.1:${http}/health` },
  ], { timeoutMs: 90_000, stopped: Promise.race([...procs.values()].map((p) => p.exited)) });
  if (!ready.ready) assert.fail(`${ready.part}: ${ready.reason}\n${[...procs].map(([name, p]) => `--- ${name}\n${p.output()}`).join('\n')}`);

  const env = { ...process.env, DATA_DIR: dataDir, PUBLIC_URL: config.publicUrl };
  const user = await esignCli<{ accountId: string }>(env, ['user', 'create', '--email', 'fo@example.com', '--password', 'correct horse battery staple', '--name', 'Failover']);
  const redirectUri = 'http://127.0.0.1:9/callback';
  const app = await esignCli<{ integrationKey: string; secretKey: string }>(env, ['app', 'create', '--user', 'fo@example.com', '--name', 'Failover', '--redirect-uri', redirectUri]);
  const trusting = new Agent({ connect: { ca: readFileSync(tls.caPath, 'utf8') } });
  teardown.push(() => trusting.close());
  const origin = config.publicUrl;
  const token = await tokenViaForms(origin, trusting, { clientId: app.integrationKey, secret: app.secretKey, redirectUri }, { email: 'fo@example.com', password: 'correct horse battery staple' });
  const auth = { authorization: `Bearer ${token}` };
  const envelopesUrl = `${origin}/restapi/v2.1/accounts/${user.accountId}/envelopes`;

  // Two clients keep listing envelopes (GET: the gateway may retry it even after a reset) the whole time.
  const statuses: { status: number; at: number }[] = [];
  let loading = true;
  const client = async () => {
    while (loading) {
      const res = await request(`${envelopesUrl}?from_date=2020-01-01T00:00:00Z`, { dispatcher: trusting, headers: auth });
      await res.body.dump();
      statuses.push({ status: res.statusCode, at: Date.now() });
      // Paced, not waiting for state: esign's API burst limit is 500 calls per 30 s per account,
      // and two clients at 5 calls/s stay well under it for the whole test.
      await delay(PACE_MS);
    }
  };
  const clients = [client(), client()];
  teardown.push(async () => {
    loading = false;
    await Promise.allSettled(clients);
  });
  await pollUntil(() => statuses.length >= 6, { timeoutMs: 30_000, what: 'traffic through both instances' });

  // Kill esign-1 without warning.
  const killedAt = Date.now();
  procs.get('esign-1')?.child.kill('SIGKILL');
  await procs.get('esign-1')?.exited;
  const target1 = `127.0.0.1:${e1}`;
  const stateOf = async (target: string) => {
    const res = await request(`http://127.0.0.1:${admin}/upstreams/${UPSTREAM}/health`);
    const body = (await res.body.json()) as { data: { target: string; health: string }[] };
    return body.data.find((d) => d.target === target)?.health;
  };
  await pollUntil(async () => (await stateOf(target1)) === 'UNHEALTHY', { timeoutMs: 20_000, what: `${target1} UNHEALTHY in the admin API` });
  assert.equal(await stateOf(`127.0.0.1:${e2}`), 'HEALTHY');

  // Writes while one instance is down: a refused connection is retried on the other target.
  const html = Buffer.from('<!doctype html><p>Failover order <span style="color:#fff">/sn1/</span></p>').toString('base64');
  const create = async (subject: string) => {
    const res = await request(envelopesUrl, {
      method: 'POST', dispatcher: trusting, headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        emailSubject: subject, status: 'sent',
        documents: [{ documentBase64: html, documentId: '1', fileExtension: 'html', name: subject }],
        recipients: { signers: [{ email: 'signer@example.com', name: 'Signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/' }] } }] },
      }),
    });
    const body = (await res.body.json()) as { envelopeId?: string };
    assert.equal(res.statusCode, 201, JSON.stringify(body));
    return body.envelopeId;
  };
  const during = await create('While esign-1 is down');
  assert.ok(during);

  // Restarted, it comes back HEALTHY (active checks) and takes traffic again.
  const esign1 = plan.parts.find((p) => p.name === 'esign-1');
  assert.ok(esign1);
  const restarted = run(esign1);
  await pollUntil(async () => (await stateOf(target1)) === 'HEALTHY', { timeoutMs: 60_000, what: `${target1} HEALTHY again after the restart` });
  await pollUntil(() => restarted.output().includes('"url":"/restapi/'), { timeoutMs: 20_000, what: 'the restarted instance to serve API requests again' });
  await create('After the restart');

  loading = false;
  await Promise.all(clients);
  const after = statuses.filter((s) => s.at > killedAt);
  t.diagnostic(`${statuses.length} GETs, ${after.length} after the kill`);
  assert.ok(after.length >= 10, `traffic continued after the kill (${after.length} requests)`);
  assert.deepEqual(statuses.filter((s) => s.status !== 200), [], 'every request succeeded');
});
