import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Agent, request } from 'undici';
import { parseDocument } from 'yaml';
import { pollUntil } from '@signet/kit';
import { startProcess } from '@signet/kit/testing';
import { startPostgresCluster } from '../../esign/test/support/postgres-cluster.ts';
import { startSmtpListener } from '../../esign/test/support/smtp-listener.ts';
import { startRedisServer } from '../../gateway/test/health/redis-server.ts';
import { buildSystemPlan, ensureDevTls, loadSystemConfig, renderKongYml } from '../src/index.ts';
import { waitUntilReady } from '../src/wait-until-ready.ts';
import { freePorts } from './support/free-ports.ts';
import { esignCli, repoRoot } from './support/start-system.ts';
import { tokenViaForms } from './support/token-via-forms.ts';

const UPSTREAM = 'esign.upstream';
type TargetHealth = { data: { target: string; health: string }[] };

test('scale-out: two esign instances share PostgreSQL (state, outbox delivered exactly once), two gateway nodes share health events through Redis', async (t) => {
  // Torn down in reverse: the parts before the database and Redis they use.
  const teardown: (() => unknown)[] = [];
  t.after(async () => {
    for (const step of teardown.reverse()) await step();
  });
  const smtp = await startSmtpListener(t);
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-scale-'));
  teardown.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const postgres = await startPostgresCluster();
  teardown.push(() => postgres.stop());
  const redis = await startRedisServer();
  teardown.push(() => redis.stop());

  // Two gateway nodes (each its own listeners) in front of the same two esign instances.
  const [e1, e2, http1, https1, admin1, http2, https2, admin2] = (await freePorts(8)) as [number, number, number, number, number, number, number, number];
  const shared = { DATA_DIR: dataDir, ESIGN_PORTS: `${e1},${e2}`, DATABASE_URL: postgres.url(), SMTP_URL: smtp.url, REDIS_URL: redis.url, PUBLIC_URL: `https://localhost:${https1}` };
  const node1 = loadSystemConfig({ ...shared, GATEWAY_HTTP_PORT: String(http1), GATEWAY_HTTPS_PORT: String(https1), GATEWAY_ADMIN_PORT: String(admin1) }, repoRoot);
  const node2 = loadSystemConfig({ ...shared, GATEWAY_HTTP_PORT: String(http2), GATEWAY_HTTPS_PORT: String(https2), GATEWAY_ADMIN_PORT: String(admin2) }, repoRoot);
  const tls = ensureDevTls(dataDir);
  // The system's kong.yml, with the active checker off: it would re-probe the healthy instance
  // within a second and overrule the operator's call, which is what this test watches travel.
  const doc = parseDocument(renderKongYml(readFileSync(join(repoRoot, 'deploy/kong.yml'), 'utf8'), { esignPorts: node1.esignPorts, certPem: readFileSync(tls.certPath, 'utf8'), keyPem: readFileSync(tls.keyPath, 'utf8') }));
  doc.setIn(['upstreams', 0, 'healthchecks', 'active', 'healthy', 'interval'], 0);
  doc.setIn(['upstreams', 0, 'healthchecks', 'active', 'unhealthy', 'interval'], 0);
  const kongYml = join(dataDir, 'kong.yml');
  writeFileSync(kongYml, doc.toString());
  const plan1 = buildSystemPlan(node1, tls, kongYml, repoRoot);
  const plan2 = buildSystemPlan(node2, tls, kongYml, repoRoot);
  const gateway2 = plan2.parts.find((p) => p.name === 'gateway');
  assert.ok(gateway2);
  const procs = [...plan1.parts, gateway2].map((spec) => ({ name: spec.name, proc: startProcess(spec.command, spec.args, { cwd: spec.cwd, env: { ...process.env, ...spec.env } }) }));
  teardown.push(() => Promise.all(procs.map(({ proc }) => proc.stop(15_000))));
  const started = Date.now();
  const ready = await waitUntilReady([
    { part: 'esign-1', url: `http://127.0.0.1:${e1}/health` },
    { part: 'esign-2', url: `http://127.0.0.1:${e2}/health` },
    { part: 'gateway 1', url: `http://127.0.0.1:${http1}/health` },
    { part: 'gateway 2', url: `http://127.0.0.1:${http2}/health` },
  ], { timeoutMs: 90_000, stopped: Promise.race(procs.map(({ proc }) => proc.exited)) });
  if (!ready.ready) assert.fail(`${ready.part}: ${ready.reason}\n${procs.map(({ name, proc }) => `--- ${name}\n${proc.output()}`).join('\n')}`);

  t.diagnostic(`parts ready in ${Date.now() - started} ms`);

  // State made through one instance is seen by the other: the CLI writes to PostgreSQL, the
  // login/consent/token steps go round-robin through the gateway.
  const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: postgres.url(), PUBLIC_URL: shared.PUBLIC_URL };
  const user = await esignCli<{ accountId: string }>(env, ['user', 'create', '--email', 'ops@example.com', '--password', 'correct horse battery staple', '--name', 'Ops']);
  const redirectUri = 'http://127.0.0.1:9/callback';
  const app = await esignCli<{ integrationKey: string; secretKey: string }>(env, ['app', 'create', '--user', 'ops@example.com', '--name', 'Scale', '--redirect-uri', redirectUri]);
  const trusting = new Agent({ connect: { ca: readFileSync(tls.caPath, 'utf8') } });
  teardown.push(() => trusting.close());
  const token = await tokenViaForms(`https://localhost:${https1}`, trusting, { clientId: app.integrationKey, secret: app.secretKey, redirectUri }, { email: 'ops@example.com', password: 'correct horse battery staple' });

  // Envelopes created through both gateway nodes, i.e. on both instances; each mails 2 recipients.
  const COUNT = 4;
  const html = Buffer.from('<!doctype html><p>Order <span style="color:#fff">/sn1/</span> <span style="color:#fff">/sn2/</span></p>').toString('base64');
  const created: string[] = [];
  for (let i = 0; i < COUNT; i++) {
    const origin = `https://localhost:${i % 2 === 0 ? https1 : https2}`;
    const res = await request(`${origin}/restapi/v2.1/accounts/${user.accountId}/envelopes`, {
      method: 'POST',
      dispatcher: trusting,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        emailSubject: `Order ${i}`,
        status: 'sent',
        documents: [{ documentBase64: html, documentId: '1', fileExtension: 'html', name: `Order ${i}` }],
        recipients: {
          signers: [{ email: `buyer${i}@example.com`, name: 'Buyer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/' }] } }],
          carbonCopies: [{ email: `copy${i}@example.com`, name: 'Copy', recipientId: '2', routingOrder: '1' }],
        },
      }),
    });
    const body = (await res.body.json()) as { envelopeId: string; status: string };
    assert.equal(res.statusCode, 201, JSON.stringify(body));
    created.push(body.envelopeId);
  }
  for (const port of [e1, e2]) {
    for (const id of created) {
      const res = await request(`http://127.0.0.1:${port}/restapi/v2.1/accounts/${user.accountId}/envelopes/${id}`, { headers: { authorization: `Bearer ${token}` } });
      const body = (await res.body.json()) as { status: string };
      assert.equal(res.statusCode, 200, `envelope ${id} on the instance at ${port}`);
      assert.equal(body.status, 'sent');
    }
  }

  t.diagnostic(`envelopes created and read back by ${Date.now() - started} ms`);

  // Both instances run an outbox worker on the same table; every mail leaves once.
  const db = new pg.Client({ connectionString: postgres.url() });
  await db.connect();
  teardown.push(() => db.end());
  await pollUntil(async () => {
    const { rows } = await db.query<{ status: string; n: string }>('select status, count(*) as n from mail_outbox group by status');
    return rows.length === 1 && rows[0]?.status === 'delivered' && Number(rows[0].n) === COUNT * 2;
  }, { timeoutMs: 30_000, intervalMs: 100, what: `${COUNT * 2} outbox rows delivered` });
  await pollUntil(() => smtp.received.length >= COUNT * 2, { timeoutMs: 10_000, what: 'the mails at the SMTP listener' });
  const seen = smtp.received.map((m) => `${m.subject ?? ''} → ${(m.to as { value: { address?: string }[] } | undefined)?.value[0]?.address ?? ''}`).sort();
  const expected = created.flatMap((_, i) => [`Order ${i} → buyer${i}@example.com`, `Order ${i} → copy${i}@example.com`]).sort();
  assert.deepEqual(seen, expected, 'each mail exactly once');

  t.diagnostic(`mails checked by ${Date.now() - started} ms`);

  // Health events: an operator call on node 1 is applied on node 2 (through Redis), and back.
  const health = async (admin: number) => {
    const res = await request(`http://127.0.0.1:${admin}/upstreams/${UPSTREAM}/health`);
    return ((await res.body.json()) as TargetHealth).data;
  };
  const stateOf = async (admin: number, target: string) => (await health(admin)).find((d) => d.target === target)?.health;
  const target1 = `127.0.0.1:${e1}`;
  assert.equal(await stateOf(admin2, target1), 'HEALTHY');
  const down = await request(`http://127.0.0.1:${admin1}/upstreams/${UPSTREAM}/targets/${target1}/unhealthy`, { method: 'POST' });
  await down.body.dump();
  assert.equal(down.statusCode, 204);
  await pollUntil(async () => (await stateOf(admin2, target1)) === 'UNHEALTHY', { timeoutMs: 10_000, what: 'node 2 to see the target UNHEALTHY' });
  // Node 2 keeps serving from the other instance.
  for (let i = 0; i < 6; i++) {
    const res = await request(`http://127.0.0.1:${http2}/health`);
    await res.body.dump();
    assert.equal(res.statusCode, 200);
  }
  const up = await request(`http://127.0.0.1:${admin2}/upstreams/${UPSTREAM}/targets/${target1}/healthy`, { method: 'POST' });
  await up.body.dump();
  assert.equal(up.statusCode, 204);
  await pollUntil(async () => (await stateOf(admin1, target1)) === 'HEALTHY', { timeoutMs: 10_000, what: 'node 1 to see the target HEALTHY again' });
});
