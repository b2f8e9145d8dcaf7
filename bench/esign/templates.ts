// Creating an envelope from a stored template vs the same envelope from the raw document,
// over HTTP in one run (not part of `npm test`).
//   node --import tsx bench/esign/templates.ts [--envelopes 10]
// The document: a 10-page docx with two white anchors on the last page; two signer roles, one
// anchored SignHere each. From scratch, every create converts the docx (LibreOffice), reads the
// PDF's text and searches both anchors. From the template, the PDF and the two tab positions
// stored when the template was made are copied: nothing is converted or searched again.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Document as DocxDocument, Packer, PageBreak, Paragraph, TextRun } from 'docx';
import { Pool } from 'undici';
import { buildConverter } from '@signet/pdf';
import { loadEsignConfig } from '../../packages/esign/src/config.ts';
import { buildEsignServer } from '../../packages/esign/src/server.ts';
import { newSecretToken, sha256Hex } from '../../packages/esign/src/security/secret-token.ts';
import { openStore, storeLocation } from '../../packages/esign/src/store/index.ts';
import { createApp } from '../../packages/esign/src/use-cases/create-app.ts';
import { registerUser } from '../../packages/esign/src/use-cases/register-user.ts';

const arg = process.argv.indexOf('--envelopes');
const ENVELOPES = arg > 0 ? Number(process.argv[arg + 1]) : 10;

async function tenPageDocx(): Promise<Buffer> {
  const children: Paragraph[] = [];
  for (let p = 1; p <= 10; p++) {
    for (let line = 0; line < 30; line++) children.push(new Paragraph({ children: [new TextRun(`Page ${p}, clause ${line + 1}: the parties agree to the terms set out in this agreement.`)] }));
    if (p < 10) children.push(new Paragraph({ children: [new PageBreak()] }));
  }
  children.push(new Paragraph({ children: [new TextRun('Buyer: '), new TextRun({ text: '/sn1/', color: 'FFFFFF' }), new TextRun('   Seller: '), new TextRun({ text: '/sn2/', color: 'FFFFFF' })] }));
  return Packer.toBuffer(new DocxDocument({ sections: [{ children }] }));
}

function stats(times: number[]) {
  const sorted = [...times].sort((a, b) => a - b);
  const pick = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return { p50: pick(0.5), p99: pick(0.99), mean: sorted.reduce((a, b) => a + b, 0) / sorted.length };
}

const dataDir = mkdtempSync(join(tmpdir(), 'signet-bench-tpl-'));
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
  const pool = new Pool(origin, { connections: 4 });
  const post = async (path: string, body: string): Promise<{ ms: number; json: Record<string, string> }> => {
    const t = process.hrtime.bigint();
    const res = await pool.request({ method: 'POST', path: `/restapi/v2.1/accounts/${user.accountId}${path}`, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    const text = await res.body.text();
    if (res.statusCode !== 201) throw new Error(`${path}: ${res.statusCode} ${text}`);
    return { ms: Number(process.hrtime.bigint() - t) / 1e6, json: JSON.parse(text) as Record<string, string> };
  };

  const docx = (await tenPageDocx()).toString('base64');
  const documents = [{ documentId: '1', name: 'Ten pages.docx', fileExtension: 'docx', documentBase64: docx }];
  const tabs = (anchor: string) => ({ signHereTabs: [{ anchorString: anchor, anchorYOffset: '-20' }] });
  const scratch = JSON.stringify({ emailSubject: 'Benchmark', status: 'sent', documents, recipients: { signers: [
    { email: 'one@example.com', name: 'One', recipientId: '1', routingOrder: '1', tabs: tabs('/sn1/') },
    { email: 'two@example.com', name: 'Two', recipientId: '2', routingOrder: '1', tabs: tabs('/sn2/') },
  ] } });
  const made = await post('/templates', JSON.stringify({ name: 'Bench', emailSubject: 'Benchmark', documents, recipients: { signers: [
    { roleName: 'buyer', recipientId: '1', routingOrder: '1', tabs: tabs('/sn1/') },
    { roleName: 'seller', recipientId: '2', routingOrder: '1', tabs: tabs('/sn2/') },
  ] } }));
  // The converted document really has the ten pages (and so does every envelope made from scratch).
  const got = await pool.request({ method: 'GET', path: `/restapi/v2.1/accounts/${user.accountId}/templates/${made.json.templateId}/documents`, headers: { authorization: `Bearer ${token}` } });
  const pages = (JSON.parse(await got.body.text()) as { templateDocuments: { pages: unknown[] }[] }).templateDocuments[0]?.pages.length;
  if (pages !== 10) throw new Error(`the docx converted to ${pages} pages, not 10`);
  const fromTemplate = JSON.stringify({ templateId: made.json.templateId, status: 'sent', templateRoles: [
    { roleName: 'buyer', name: 'One', email: 'one@example.com' },
    { roleName: 'seller', name: 'Two', email: 'two@example.com' },
  ] });

  // Warm-up: LibreOffice, threads, JIT, SQLite pages.
  for (let i = 0; i < 2; i++) {
    await post('/envelopes', scratch);
    await post('/envelopes', fromTemplate);
  }
  const rows: string[] = [`| createTemplate (10-page docx, 2 roles, 2 anchors), once | 1 | – | ${made.ms.toFixed(1)} | – |`];
  const means: number[] = [];
  for (const [label, body] of [['createEnvelope from the raw docx (sent, 2 signers, 2 anchors)', scratch], ['createEnvelope from the stored template (sent, 2 roles)', fromTemplate]] as const) {
    const times: number[] = [];
    const start = process.hrtime.bigint();
    for (let i = 0; i < ENVELOPES; i++) times.push((await post('/envelopes', body)).ms);
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const s = stats(times);
    means.push(s.mean);
    rows.push(`| ${label} | ${times.length} | ${(times.length / seconds).toFixed(1)} | ${s.p50.toFixed(1)} | ${s.p99.toFixed(1)} |`);
    console.error(rows.at(-1));
  }
  console.log('| measurement | n | per second | p50 ms | p99 ms |\n|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log(`\nfrom the template: ${((means[0] ?? 0) / (means[1] ?? 1)).toFixed(1)}× faster (mean)`);
  await pool.close();
  await app.close();
} finally {
  await store.close();
  await converter.close();
  rmSync(dataDir, { recursive: true, force: true });
}
