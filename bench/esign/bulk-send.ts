// Bulk send: a list sent as one batch, rows per second and peak memory (not part of `npm test`).
//   node --import tsx bench/esign/bulk-send.ts [--rows 250,1000] [--reference 100]
// Each measurement runs in a child process of its own (a fresh esign on a fresh SQLite file), so
// its peak RSS (the kernel's maxRSS, process.resourceUsage) is its own:
// - `idle`: the server up, a draft and a one-row list made and sent (the baseline);
// - `bulk N`: a list of N rows sent as one batch; rows/s from the send request until no row is
//   queued; each row is a sent envelope with its signing token and its mail in the outbox;
// - `reference`: the same envelope created and sent one createEnvelope call at a time over HTTP
//   (the same PDF, recipients and tabs), the way an integration without bulk send makes them.
// Memory is flat when `bulk 1000` peaks no higher than `bulk 250` by more than noise: the worker
// holds one claim of rows (25) and the draft's PDFs, never the batch.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { Pool } from 'undici';
import { buildConverter } from '@signet/pdf';
import { loadEsignConfig } from '../../packages/esign/src/config.ts';
import { buildEsignServer } from '../../packages/esign/src/server.ts';
import { newSecretToken, sha256Hex } from '../../packages/esign/src/security/secret-token.ts';
import { openStore, storeLocation } from '../../packages/esign/src/store/index.ts';
import { createApp } from '../../packages/esign/src/use-cases/create-app.ts';
import { registerUser } from '../../packages/esign/src/use-cases/register-user.ts';

const argOf = (name: string, fallback: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};

async function pdf(): Promise<string> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 3; p++) doc.addPage([612, 792]).drawText(`Terms, page ${p}. Signed: /sn1/`, { x: 72, y: 200, size: 11, font });
  return Buffer.from(await doc.save()).toString('base64');
}

/** One measurement in this process: prints one JSON line. */
async function child(mode: 'idle' | 'bulk' | 'reference', rows: number): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'signet-bench-bulk-'));
  const converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
  const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:0', PORT: '0' }, dataDir);
  const store = await openStore(storeLocation(config));
  try {
    const app = await buildEsignServer(config, { store, converter });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    const user = await registerUser(store, { email: 'bench@example.com', password: 'correct horse battery', name: 'Bench', now: new Date() });
    const { app: integration } = await createApp(store, { userId: user.userId, name: 'bench', redirectUris: ['http://localhost/cb'], withSecret: false, now: new Date() });
    const token = newSecretToken();
    const now = new Date();
    await store.oauth.insertTokens([{ token_hash: sha256Hex(token), kind: 'access', app_id: integration.id, user_id: user.userId, grant_id: 'bench', scopes: 'signature', expires_at: new Date(now.getTime() + 3_600_000).toISOString(), revoked_at: null, created_at: now.toISOString() }]);
    const pool = new Pool(`http://127.0.0.1:${address.port}`, { connections: 2 });
    const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, string>> => {
      const res = await pool.request({ method, path: `/restapi/v2.1/accounts/${user.accountId}${path}`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`${path}: ${res.statusCode} ${text}`);
      return JSON.parse(text) as Record<string, string>;
    };
    const documents = [{ documentId: '1', name: 'Terms', fileExtension: 'pdf', documentBase64: await pdf() }];
    const signer = (email: string, name: string) => ({ email, name, roleName: 'signer', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorXOffset: '40' }], textTabs: [{ tabLabel: 'Reference', documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '100', value: '-' }] } });
    const sendBatch = async (n: number) => {
      const { envelopeId } = await call('POST', '/envelopes', { emailSubject: 'Terms', status: 'created', documents, recipients: { signers: [signer('placeholder@example.com', 'Placeholder')] } });
      const { listId } = await call('POST', '/bulk_send_lists', { name: `rows ${n}`, bulkCopies: Array.from({ length: n }, (_, i) => ({ recipients: [{ roleName: 'signer', name: `Row ${i + 1}`, email: `row${i + 1}@example.com`, tabs: [{ tabLabel: 'Reference', initialValue: `REF-${i + 1}` }] }] })) });
      const start = process.hrtime.bigint();
      const { batchId } = await call('POST', `/bulk_send_lists/${listId}/send`, { envelopeOrTemplateId: envelopeId });
      for (;;) {
        const status = await call('GET', `/bulk_send_batch/${batchId}`);
        if (status.queued === '0') {
          if (status.sent !== String(n)) throw new Error(`batch ended with ${status.sent} sent, ${status.failed} failed`);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return Number(process.hrtime.bigint() - start) / 1e9;
    };
    // Warm-up in every mode: the same one-row batch (JIT, SQLite pages, the converter).
    await sendBatch(1);
    // RSS and heap sampled every 10 ms through the measured part: its growth over the moment before.
    const before = process.memoryUsage();
    let peakRss = before.rss;
    let peakHeap = before.heapUsed;
    const sampler = setInterval(() => {
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    }, 10);
    let seconds = 0;
    if (mode === 'bulk') seconds = await sendBatch(rows);
    if (mode === 'reference') {
      const start = process.hrtime.bigint();
      for (let i = 0; i < rows; i++) await call('POST', '/envelopes', { emailSubject: 'Terms', status: 'sent', documents, recipients: { signers: [{ ...signer(`row${i + 1}@example.com`, `Row ${i + 1}`), tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorXOffset: '40' }], textTabs: [{ tabLabel: 'Reference', documentId: '1', pageNumber: '1', xPosition: '300', yPosition: '100', value: `REF-${i + 1}` }] } }] } });
      seconds = Number(process.hrtime.bigint() - start) / 1e9;
    }
    clearInterval(sampler);
    await pool.close();
    await app.close();
    const mib = (b: number) => b / 1024 / 1024;
    console.log(JSON.stringify({ mode, rows, seconds, perSecond: rows / (seconds || 1), maxRssMiB: process.resourceUsage().maxRSS / 1024, rssGrowthMiB: mib(peakRss - before.rss), heapGrowthMiB: mib(peakHeap - before.heapUsed) }));
  } finally {
    await store.close();
    await converter.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--child')) {
  await child(argOf('--mode', 'bulk') as 'idle' | 'bulk' | 'reference', Number(argOf('--n', '0')));
} else {
  const sizes = argOf('--rows', '250,1000').split(',').map(Number);
  const reference = Number(argOf('--reference', '100'));
  const self = fileURLToPath(import.meta.url);
  const run = (mode: string, n: number) => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', self, '--child', '--mode', mode, '--n', String(n)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (out.status !== 0) throw new Error(`${mode} ${n} failed`);
    const line = JSON.parse(out.stdout.trim().split('\n').at(-1) ?? '{}') as { mode: string; rows: number; seconds: number; perSecond: number; maxRssMiB: number; rssGrowthMiB: number; heapGrowthMiB: number };
    console.error(JSON.stringify(line));
    return line;
  };
  const results = [run('idle', 0), run('reference', reference), ...sizes.map((n) => run('bulk', n))];
  const ref = results[1]!;
  console.log('| run | rows | seconds | rows/s | vs one createEnvelope at a time | peak RSS MiB (process) | RSS growth MiB (during) | heap growth MiB (during) |\n|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of results) console.log(`| ${r.mode} | ${r.rows} | ${r.seconds.toFixed(2)} | ${r.mode === 'idle' ? '–' : r.perSecond.toFixed(1)} | ${r.mode === 'idle' ? '–' : (r.perSecond / ref.perSecond).toFixed(2)} | ${r.maxRssMiB.toFixed(1)} | ${r.rssGrowthMiB.toFixed(1)} | ${r.heapGrowthMiB.toFixed(1)} |`);
}
