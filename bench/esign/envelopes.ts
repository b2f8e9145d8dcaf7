// CreateEnvelope throughput and latency over HTTP, on a 10-page PDF with two anchors,
// against raw pdf.js reading the same PDF's text in the same run (not part of `npm test`).
//   node --import tsx bench/esign/envelopes.ts [--envelopes 60]
// What one create does: parse + base64-decode the body, validate the PDF and read its text
// (the converter's pdf threads), search two anchors, one SQLite transaction (envelope, PDF bytes,
// recipients, tabs, signing tokens, outbox mails). The outbox worker delivers the mails into
// the dev mailbox concurrently, as in production without SMTP_URL.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { Pool } from 'undici';
import { buildConverter } from '@signet/pdf';
import { loadEsignConfig } from '../../packages/esign/src/config.ts';
import { buildEsignServer } from '../../packages/esign/src/server.ts';
import { newSecretToken, sha256Hex } from '../../packages/esign/src/security/secret-token.ts';
import { openStore, storeLocation } from '../../packages/esign/src/store/index.ts';
import { createApp } from '../../packages/esign/src/use-cases/create-app.ts';
import { registerUser } from '../../packages/esign/src/use-cases/register-user.ts';
import { openWithPdfJs } from '../../packages/pdf/src/open-with-pdf-js.ts';

const arg = process.argv.indexOf('--envelopes');
const ENVELOPES = arg > 0 ? Number(process.argv[arg + 1]) : 60;

async function tenPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 10; p++) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 45; line++) page.drawText(`Page ${p}, clause ${line + 1}: the parties agree to the terms set out in this agreement.`, { x: 72, y: 720 - line * 14, size: 10, font });
  }
  pdf.getPage(9).drawText('/sn1/', { x: 100, y: 90, size: 10, font, color: rgb(1, 1, 1) });
  pdf.getPage(9).drawText('/sn2/', { x: 350, y: 90, size: 10, font, color: rgb(1, 1, 1) });
  return pdf.save();
}

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: pick(0.5), p99: pick(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

const dataDir = mkdtempSync(join(tmpdir(), 'signet-bench-env-'));
const converter = await buildConverter({ officeWorkers: 1, htmlPages: 1 });
const config = loadEsignConfig({ DATA_DIR: dataDir, PUBLIC_URL: 'http://127.0.0.1:0', PORT: '0' }, dataDir);
const store = await openStore(storeLocation(config));
try {
  const app = await buildEsignServer(config, { store, converter });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const origin = `http://127.0.0.1:${address.port}`;

  const user = await registerUser(store, { email: 'bench@example.com', password: 'correct horse battery', name: 'Bench', now: new Date() });
  const { app: integration } = await createApp(store, { userId: user.userId, name: 'bench', redirectUris: ['http://localhost/cb'], withSecret: false, now: new Date() });
  const token = newSecretToken();
  const now = new Date();
  await store.oauth.insertTokens([{ token_hash: sha256Hex(token), kind: 'access', app_id: integration.id, user_id: user.userId, grant_id: 'bench', scopes: 'signature', expires_at: new Date(now.getTime() + 3_600_000).toISOString(), revoked_at: null, created_at: now.toISOString() }]);

  const pdf = await tenPagePdf();
  const body = JSON.stringify({
    emailSubject: 'Benchmark',
    status: 'sent',
    documents: [{ documentId: '1', name: 'Ten pages', fileExtension: 'pdf', documentBase64: Buffer.from(pdf).toString('base64') }],
    recipients: { signers: [
      { email: 'one@example.com', name: 'One', recipientId: '1', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn1/', anchorYOffset: '-20' }] } },
      { email: 'two@example.com', name: 'Two', recipientId: '2', routingOrder: '1', tabs: { signHereTabs: [{ anchorString: '/sn2/', anchorYOffset: '-20' }] } },
    ] },
  });
  const pool = new Pool(origin, { connections: 8 });
  const create = async (): Promise<number> => {
    const t = process.hrtime.bigint();
    const res = await pool.request({ method: 'POST', path: `/restapi/v2.1/accounts/${user.accountId}/envelopes`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`create failed: ${res.statusCode} ${text}`);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const rawText = async (): Promise<number> => {
    const t = process.hrtime.bigint();
    const doc = await openWithPdfJs(pdf);
    for (let p = 1; p <= doc.numPages; p++) await (await doc.getPage(p)).getTextContent();
    await doc.destroy();
    return Number(process.hrtime.bigint() - t) / 1e6;
  };

  for (let i = 0; i < 3; i++) await create(); // warm-up: threads, JIT, SQLite pages
  await rawText();
  const rows: string[] = [];
  const raw: number[] = [];
  for (let i = 0; i < ENVELOPES; i++) raw.push(await rawText());
  const r = stats(raw);
  rows.push(`| raw pdf.js getTextContent of every page (in-process, sequential) | ${ENVELOPES} | ${(1000 / r.mean).toFixed(1)} | ${r.p50.toFixed(1)} | ${r.p99.toFixed(1)} |`);
  for (const concurrency of [1, 4]) {
    const times: number[] = [];
    const start = process.hrtime.bigint();
    let next = 0;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (next < ENVELOPES) {
        next++;
        times.push(await create());
      }
    }));
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const s = stats(times);
    rows.push(`| POST createEnvelope (sent, 2 signers, 2 anchors), concurrency ${concurrency} | ${times.length} | ${(times.length / seconds).toFixed(1)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} |`);
    console.error(rows.at(-1));
  }
  console.log('| measurement | n | per second | p50 ms | p99 ms |\n|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  await pool.close();
  await app.close();
} finally {
  await store.close();
  await converter.close();
  rmSync(dataDir, { recursive: true, force: true });
}
