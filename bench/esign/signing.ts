// The signing ceremony's server-side costs, not part of `npm test`:
//   node --import tsx bench/esign/signing.ts [--runs 20]
// 1. Page images: pdftoppm (JPEG) per page (what signing/page-renderer.ts runs on a cache miss) on a
//    10-page Letter PDF, and a cache hit; beside it, the bytes pdf.js would make every signer's
//    browser download instead (the alternative the issue names).
// 2. Completion: stamp the signatures, render the certificate, merge and seal three files
//    (completion/build-completed-pdfs.ts) for a 1-page and a 10-page envelope.
import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { createDevSealP12 } from '@signet/pdf';
import { buildCompletedPdfs } from '../../packages/esign/src/completion/build-completed-pdfs.ts';
import type { Envelope } from '../../packages/esign/src/domain/envelope/envelope.ts';
import { signHereTab } from '../../packages/esign/src/domain/tabs/sign-here-tab.ts';
import { PageRenderer } from '../../packages/esign/src/signing/page-renderer.ts';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 20;

async function pdf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= pages; i++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 40; line++) page.drawText(`Clause ${i}.${line}: the parties agree to the terms set out in this section.`, { x: 54, y: 740 - line * 17, size: 10, font, color: rgb(0, 0, 0) });
  }
  return doc.save();
}

async function measure(runs: number, fn: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return { p50: at(0.5), p95: at(0.95) };
}

function envelope(pages: number): Envelope {
  const now = new Date();
  return {
    envelopeId: 'bench', accountId: 'a', senderUserId: 'u', status: 'signed', emailSubject: 'Bench', createdAt: now, statusChangedAt: now, sentAt: now, version: 3,
    documents: [{ documentId: '1', name: 'Contract', fileExtension: 'pdf', order: 1, pageCount: pages, sha256: 'ab'.repeat(32) }],
    recipients: [1, 2].map((n) => ({
      recipientId: String(n), recipientIdGuid: `g${n}`, type: 'signer' as const, email: `s${n}@example.com`, name: `Signer ${n}`, routingOrder: n, status: 'completed' as const, signedAt: now,
      tabs: [{ tabId: `t${n}`, recipientId: String(n), documentId: '1', pageNumber: pages, xPosition: 72 + (n - 1) * 250, yPosition: 700, value: '', tab: signHereTab({ documentId: '1', pageNumber: pages, xPosition: 72 + (n - 1) * 250, yPosition: 700 }) }],
    })),
  };
}

const rows: string[] = [];
const ten = await pdf(10);
const renderer = new PageRenderer();
let page = 0;
const miss = await measure(RUNS, () => new PageRenderer().jpeg('k', (page++ % 10) + 1, () => Promise.resolve(ten)));
rows.push(`| page image, cache miss (pdftoppm → JPEG q85, 110 dpi, Letter, 40 lines of text) | ${miss.p50.toFixed(1)} | ${miss.p95.toFixed(1)} |`);
await renderer.jpeg('k', 1, () => Promise.resolve(ten));
const hit = await measure(RUNS, () => renderer.jpeg('k', 1, () => Promise.resolve(ten)));
rows.push(`| page image, cache hit | ${hit.p50.toFixed(3)} | ${hit.p95.toFixed(3)} |`);
const image = await renderer.jpeg('k', 1, () => Promise.resolve(ten));

const seal = createDevSealP12();
const signatures = new Map([['1', { kind: 'typed' as const, typedText: 'Signer One', signedTabIds: ['t1'], adoptedAt: new Date() }], ['2', { kind: 'typed' as const, typedText: 'Signer Two', signedTabIds: ['t2'], adoptedAt: new Date() }]]);
for (const pages of [1, 10]) {
  const bytes = pages === 10 ? ten : await pdf(1);
  const t = await measure(Math.max(5, Math.round(RUNS / 2)), () => buildCompletedPdfs({ envelope: envelope(pages), pdfs: new Map([['1', bytes]]), signatures, audit: [], seal, now: new Date() }));
  rows.push(`| completion of a ${pages}-page envelope, 2 signers (stamp, certificate, merge, 3 seals) | ${t.p50.toFixed(1)} | ${t.p95.toFixed(1)} |`);
}

const pdfjs = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs'));
const shipped = ['pdf.min.mjs', 'pdf.worker.min.mjs'].map((f) => statSync(join(pdfjs, f)).size).reduce((a, b) => a + b, 0);
console.log(`| what | p50 ms | p95 ms |\n|---|---|---|\n${rows.join('\n')}`);
console.log(`\nOne page image is ${(image.byteLength / 1024).toFixed(0)} KB; pdf.js in the browser would first download ${(shipped / 1024).toFixed(0)} KB of script (pdf.min.mjs + pdf.worker.min.mjs, uncompressed) and the PDF.`);
