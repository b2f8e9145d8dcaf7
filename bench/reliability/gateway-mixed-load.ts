// Sustained mixed traffic through the real gateway for 60 s: two `signet-esign serve`
// processes on one SQLite file behind `signet-gateway start`, envelope reads (get, list status
// changes) and creates (a one-page PDF draft) from concurrent clients over many accounts (each
// stays inside DocuSign's 3,000/hour and 500/30 s limits). Reports requests, errors, latency
// and the RSS of every process at start (after warm-up) and end. Not part of `npm test`.
//   node --import tsx bench/reliability/gateway-mixed-load.ts [--seconds 60] [--clients 8]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { request } from 'undici';
import { pollUntil } from '@signet/kit';
import { startProcess, type StartedProcess } from '@signet/kit/testing';
import type { EsignContext } from '../../packages/esign/src/context.ts';
import { mintTokens } from '../../packages/esign/src/oauth/token-issuer.ts';
import { MIGRATIONS, openStore, runMigrations, sqliteFileIn } from '../../packages/esign/src/store/index.ts';
import { createApp } from '../../packages/esign/src/use-cases/create-app.ts';
import { registerUser } from '../../packages/esign/src/use-cases/register-user.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, clients: { type: 'string', default: '8' }, accounts: { type: 'string', default: '40' } } });
const SECONDS = Number(values.seconds);
const CLIENTS = Number(values.clients);
const ACCOUNTS = Number(values.accounts);

const rssMb = (pid: number | undefined): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
};

const procs: StartedProcess[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'signet-load-'));
try {
  // The schema first (one process), then the accounts and their tokens straight into the store.
  const store = await openStore({ sqliteFile: sqliteFileIn(dataDir) });
  await runMigrations(store.db.kysely, store.db.engine, { migrations: MIGRATIONS });
  const now = new Date();
  const ctx = { now: () => now } as Pick<EsignContext, 'now'> as EsignContext;
  const accounts: Array<{ accountId: string; token: string; envelopes: string[] }> = [];
  for (let i = 0; i < ACCOUNTS; i++) {
    const user = await registerUser(store, { email: `load${i}-${randomUUID().slice(0, 6)}@example.com`, password: 'correct horse battery', name: `Load ${i}`, now });
    const { app } = await createApp(store, { userId: user.userId, name: 'load', redirectUris: ['http://localhost:3000/cb'], withSecret: true, now });
    const { body, rows } = mintTokens(ctx, { appId: app.id, userId: user.userId, grantId: randomUUID(), scopes: ['signature'], accessTtl: 28_800, refreshExpiresAt: undefined });
    await store.oauth.insertTokens(rows);
    accounts.push({ accountId: user.accountId, token: body.access_token, envelopes: [] });
  }

  const esigns: Array<{ proc: StartedProcess; target: string }> = [];
  for (let i = 0; i < 2; i++) {
    const proc = startProcess(process.execPath, [join(ROOT, 'packages/esign/bin/signet-esign.mjs'), 'serve'], { env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:9' }, cwd: ROOT });
    procs.push(proc);
    const url = await pollUntil(() => /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(proc.output())?.[1], { timeoutMs: 120_000, intervalMs: 50, what: 'esign to listen' });
    esigns.push({ proc, target: new URL(url).host });
  }
  const yml = join(dataDir, 'kong.yml');
  writeFileSync(yml, `_format_version: "3.0"
services:
  - name: esign
    host: esign.upstream
    retries: 5
    routes:
      - name: all
        paths: ["/"]
upstreams:
  - name: esign.upstream
    healthchecks:
      active: { http_path: /health, healthy: { interval: 2, successes: 1 }, unhealthy: { interval: 1, tcp_failures: 1, http_failures: 2 } }
      passive: { unhealthy: { http_statuses: [500, 502, 503, 504], http_failures: 3, tcp_failures: 1 } }
    targets:
${esigns.map((e) => `      - target: ${e.target}`).join('\n')}
`);
  const gateway = startProcess(process.execPath, ['--import', 'tsx', join(ROOT, 'packages/gateway/src/cli.ts'), 'start', '--config', yml, '--proxy-listen', '127.0.0.1:0', '--admin-listen', '127.0.0.1:0', '--workers', '1'], { env: { ...process.env }, cwd: ROOT });
  procs.push(gateway);
  const proxy = await pollUntil(() => /proxy listening on (http:\/\/[\d.:]+)/.exec(gateway.output())?.[1], { timeoutMs: 60_000, intervalMs: 50, what: 'the gateway to start' });

  const pdfDoc = await PDFDocument.create();
  pdfDoc.addPage([612, 792]).drawText('Load test agreement', { x: 72, y: 700, size: 12, font: await pdfDoc.embedFont(StandardFonts.Helvetica) });
  const pdf = Buffer.from(await pdfDoc.save()).toString('base64');
  const draft = JSON.stringify({ status: 'created', emailSubject: 'Load', documents: [{ documentId: '1', name: 'a.pdf', fileExtension: 'pdf', documentBase64: pdf }], recipients: { signers: [{ email: 'signer@example.com', name: 'Signer', recipientId: '1', tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '100' }] } }] } });

  const stats = { reads: 0, creates: 0, errors: [] as string[], latencies: [] as number[] };
  async function one(account: (typeof accounts)[number], i: number): Promise<void> {
    const base = `${proxy}/restapi/v2.1/accounts/${account.accountId}/envelopes`;
    const headers = { authorization: `Bearer ${account.token}` };
    const started = performance.now();
    try {
      const create = i % 5 === 0 || account.envelopes.length === 0;
      const res = create
        ? await request(base, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: draft })
        : i % 2 === 0
          ? await request(`${base}/${account.envelopes[i % account.envelopes.length]}?include=recipients`, { headers })
          : await request(`${base}?from_date=2000-01-01&count=20`, { headers });
      const text = await res.body.text();
      if (res.statusCode >= 300) stats.errors.push(`${res.statusCode} ${text.slice(0, 120)}`);
      else if (create) {
        stats.creates++;
        account.envelopes.push((JSON.parse(text) as { envelopeId: string }).envelopeId);
      } else stats.reads++;
    } catch (e) {
      stats.errors.push((e as Error).message);
    }
    stats.latencies.push(performance.now() - started);
  }

  // Warm-up (JIT, SQLite pages, pdf threads), then RSS at start.
  for (let i = 0; i < 50; i++) await one(accounts[i % ACCOUNTS]!, i);
  stats.reads = stats.creates = 0;
  stats.latencies.length = 0;
  const pids = { gateway: gateway.child.pid, esignA: esigns[0]!.proc.child.pid, esignB: esigns[1]!.proc.child.pid };
  const rssStart = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssMb(pid)]));
  const deadline = performance.now() + SECONDS * 1000;
  let counter = 0;
  await Promise.all(Array.from({ length: CLIENTS }, async (_, c) => {
    while (performance.now() < deadline) {
      const i = counter++;
      await one(accounts[(c + i) % ACCOUNTS]!, i);
    }
  }));
  const rssEnd = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, rssMb(pid)]));
  const sorted = [...stats.latencies].sort((a, b) => a - b);
  const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]?.toFixed(1);
  const total = stats.reads + stats.creates + stats.errors.length;
  console.log(JSON.stringify({
    seconds: SECONDS, clients: CLIENTS, accounts: ACCOUNTS,
    requests: total, perSecond: Math.round(total / SECONDS), reads: stats.reads, creates: stats.creates,
    errors: stats.errors.length, firstErrors: stats.errors.slice(0, 5),
    latencyMs: { p50: pct(0.5), p99: pct(0.99), max: sorted.at(-1)?.toFixed(1) },
    rssMb: { start: rssStart, end: rssEnd },
  }, null, 2));
  await store.close();
} finally {
  for (const p of procs.reverse()) await p.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
