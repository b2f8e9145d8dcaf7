// What a signature image costs the esign event loop (security review II, "a small PNG stalls
// the event loop"), not part of `npm test`:
//   node --import tsx bench/esign/signature-images.ts [--runs 10]
// For a 600×200 pad drawing and a 2000×1000 image (the budget's limit): the longest event-loop
// stall while it is checked and stamped on this thread (the old way) and on a pdf thread (now),
// as a ratio measured in the same run; and the time to refuse an 8000×8000 PNG from its header
// (the old code decoded it: 4 s and 680 MB in the review).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { PDFDocument } from 'pdf-lib';
import { checkSignatureImage, PdfThreads, readSignatureImage, stampSignatures } from '@signet/pdf';
import { makeBlankPng, makeSignaturePng } from '../../packages/pdf/test/raster.fixture.ts';

const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 10;

async function onePagePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  return doc.save();
}

/** Longest event-loop delay (ms) while `fn` runs `RUNS` times. */
async function worstStall(fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const h = monitorEventLoopDelay({ resolution: 5 });
  h.enable();
  for (let i = 0; i < RUNS; i++) {
    await fn();
    // Let the histogram's timer fire: a loop blocked the whole time would record nothing.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  h.disable();
  return h.max / 1e6;
}

const threads = new PdfThreads(1);
await threads.warmUp();
const pdf = await onePagePdf();
const rows: string[] = [];
for (const [label, png] of [['600×200 pad drawing', makeSignaturePng(600, 200)], ['2000×1000 (the limit)', makeSignaturePng(2000, 1000)]] as const) {
  const stamps = [{ pageNumber: 1, x: 72, y: 100, signature: { type: 'image' as const, image: png } }];
  const here = await worstStall(async () => {
    await checkSignatureImage(png);
    await stampSignatures(pdf, stamps);
  });
  const there = await worstStall(async () => {
    await threads.checkSignatureImage(png);
    await threads.stampSignatures(pdf, stamps);
  });
  rows.push(`| ${label} (${png.byteLength} B) | ${here.toFixed(1)} | ${there.toFixed(1)} | ${(here / Math.max(there, 0.001)).toFixed(1)}× |`);
}
const bomb = makeBlankPng(8000, 8000);
const t0 = process.hrtime.bigint();
for (let i = 0; i < 1000; i++) {
  try {
    readSignatureImage(bomb);
  } catch {
    // refused, as it must be
  }
}
const refuseUs = Number(process.hrtime.bigint() - t0) / 1e3 / 1000;
await threads.close();
console.log('| image | worst stall on the event loop, here (ms) | on a pdf thread (ms) | ratio |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
console.log(`\n8000×8000 PNG (${bomb.byteLength} B): refused from its header in ${refuseUs.toFixed(1)} µs`);
