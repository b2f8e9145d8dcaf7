// Conversion latency: the pdf package's warm engines against the raw tools they wrap, on the
// same inputs in the same run (not part of `npm test`).
//   node --import tsx bench/esign/conversion.ts [--runs 30]
// Prints a markdown table for docs/benchmarks.md.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { buildConverter, findAnchors, validatePdf } from '@signet/pdf';
import { openWithPdfJs } from '../../packages/pdf/src/open-with-pdf-js.ts';
import { makeDocx, makeHtml } from '../../packages/pdf/test/documents.fixture.ts';

const run = promisify(execFile);
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 30;
const COLD_RUNS = Math.max(3, Math.round(RUNS / 6));

type Row = { what: string; runs: number; p50: number; p95: number; mean: number };
const rows: Row[] = [];

async function measure(what: string, runs: number, fn: () => Promise<unknown>): Promise<Row> {
  await fn(); // warm-up run, not counted
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  times.sort((a, b) => a - b);
  const pick = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  const row = { what, runs, p50: pick(0.5), p95: pick(0.95), mean: times.reduce((a, b) => a + b, 0) / times.length };
  rows.push(row);
  console.error(`${what}: p50 ${row.p50.toFixed(1)} ms`);
  return row;
}

/** A 10-page Letter PDF with two white anchors, as in the envelope benchmark (bench/esign/envelopes.ts). */
async function tenPagePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 10; p++) {
    const page = pdf.addPage([612, 792]);
    for (let line = 0; line < 45; line++) {
      page.drawText(`Page ${p}, clause ${line + 1}: the parties agree to the terms set out in this agreement.`, { x: 72, y: 720 - line * 14, size: 10, font });
    }
  }
  const last = pdf.getPage(9);
  last.drawText('/sn1/', { x: 100, y: 90, size: 10, font, color: rgb(1, 1, 1) });
  last.drawText('/sn2/', { x: 350, y: 90, size: 10, font, color: rgb(1, 1, 1) });
  return pdf.save();
}

const dir = await mkdtemp(join(tmpdir(), 'signet-bench-conv-'));
const docx = await makeDocx();
const html = makeHtml();
const pdf10 = await tenPagePdf();
await writeFile(join(dir, 'nda.docx'), docx);
await writeFile(join(dir, 'offer.html'), html);

const warm = await buildConverter({ officeWorkers: 2, htmlPages: 2 });
const cold = await buildConverter({ officeMode: 'cold' });
try {
  await warm.warmUp();
  let n = 0;
  await measure('raw `soffice --convert-to pdf` (new process, fresh profile), docx', COLD_RUNS, async () => {
    const profile = join(dir, `profile-${n++}`);
    await run('/usr/bin/soffice', ['--headless', `-env:UserInstallation=${pathToFileURL(profile).href}`, '--convert-to', 'pdf', '--outdir', join(dir, 'out'), join(dir, 'nda.docx')]);
  });
  await measure('@signet/pdf cold fallback (soffice.bin per document), docx', COLD_RUNS, () => cold.convert({ bytes: docx, fileExtension: 'docx' }));
  await measure('@signet/pdf warm LibreOffice (python3-uno worker), docx', RUNS, () => warm.convert({ bytes: docx, fileExtension: 'docx' }));
  await measure('raw `chromium --headless --print-to-pdf` (new browser), html', COLD_RUNS, () =>
    run('/usr/bin/chromium', ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      `--print-to-pdf=${join(dir, 'offer.pdf')}`, pathToFileURL(join(dir, 'offer.html')).href]));
  await measure('@signet/pdf warm Chromium (reused page), html', RUNS, () => warm.convert({ bytes: html, fileExtension: 'html' }));
  await measure('raw pdf.js open + read last page, 10-page pdf', RUNS, async () => {
    const doc = await openWithPdfJs(pdf10);
    await doc.getPage(doc.numPages);
    await doc.destroy();
  });
  await measure('@signet/pdf validatePdf (pdf.js + pdf-lib), 10-page pdf', RUNS, () => validatePdf(pdf10));
  await measure('@signet/pdf converter pdf passthrough (validation on a worker thread), 10-page pdf', RUNS, () => warm.convert({ bytes: pdf10, fileExtension: 'pdf' }));
  await measure('raw pdf.js getTextContent of every page, 10-page pdf', RUNS, async () => {
    const doc = await openWithPdfJs(pdf10);
    for (let p = 1; p <= doc.numPages; p++) await (await doc.getPage(p)).getTextContent();
    await doc.destroy();
  });
  await measure('@signet/pdf findAnchors, 10-page pdf', RUNS, () => findAnchors([pdf10], { anchorString: '/sn1/' }));
  await measure('@signet/pdf converter.findAnchors (worker thread), 10-page pdf', RUNS, () => warm.findAnchors([pdf10], { anchorString: '/sn1/' }));

  // Throughput with bounded concurrency: 20 docx at once through 2 warm workers.
  const t = process.hrtime.bigint();
  await Promise.all(Array.from({ length: 20 }, () => warm.convert({ bytes: docx, fileExtension: 'docx' })));
  const burstMs = Number(process.hrtime.bigint() - t) / 1e6;

  const f = (x: number): string => x.toFixed(x < 10 ? 1 : 0);
  console.log(`| measurement | runs | p50 ms | p95 ms | mean ms |\n|---|---|---|---|---|`);
  for (const r of rows) console.log(`| ${r.what} | ${r.runs} | ${f(r.p50)} | ${f(r.p95)} | ${f(r.mean)} |`);
  console.log(`\n20 docx submitted at once to 2 warm workers: ${f(burstMs)} ms in all (${f((20 * 1000) / burstMs)} documents/s).`);
} finally {
  await Promise.all([warm.close(), cold.close()]);
  await rm(dir, { recursive: true, force: true });
}
