import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { extractText, findAnchors, PdfError, PdfThreads, validatePdf } from '../src/index.ts';
import { encryptWithQpdf, makePdf } from './documents.fixture.ts';

async function longPdf(pages: number): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([612, 792]);
    for (let l = 0; l < 45; l++) page.drawText(`Page ${p} line ${l}: the parties agree to the terms of this agreement.`, { x: 72, y: 720 - l * 14, size: 10, font });
  }
  return pdf.save();
}

describe('pdf parsing on worker threads', () => {
  const threads = new PdfThreads(2);
  let pdf: Uint8Array;

  before(async () => {
    pdf = await makePdf();
    await threads.warmUp();
  });
  after(() => threads.close());

  test('the threads give exactly what the in-thread functions give', async () => {
    assert.equal(await threads.validate(pdf), await validatePdf(pdf));
    assert.deepEqual(await threads.extractText([pdf, pdf]), await extractText([pdf, pdf]));
    assert.deepEqual(await threads.findAnchors([pdf], { anchorString: '/sn1/', anchorUnits: 'inches', anchorXOffset: 1 }),
      await findAnchors([pdf], { anchorString: '/sn1/', anchorUnits: 'inches', anchorXOffset: 1 }));
  });

  test('a PdfError crosses the thread boundary with its code and message', async () => {
    const encrypted = await encryptWithQpdf(pdf);
    const local = await validatePdf(encrypted).catch((e: unknown) => e);
    const remote = await threads.validate(encrypted).catch((e: unknown) => e);
    assert.ok(remote instanceof PdfError);
    assert.equal(remote.code, 'ENCRYPTED_DOCUMENT');
    assert.equal(remote.message, (local as PdfError).message);
    await assert.rejects(threads.validate(Buffer.from('%PDF-1.7 nothing else')), (e: unknown) => e instanceof PdfError && e.code === 'CORRUPT_DOCUMENT');
  });

  test('an aborted job terminates its thread; the next job gets a fresh one', async () => {
    const big = await longPdf(60);
    const controller = new AbortController();
    const job = threads.extractText([big, big, big], controller.signal);
    controller.abort(new Error('deadline'));
    await assert.rejects(job, /deadline/);
    assert.equal((await threads.extractText([pdf]))[0]?.pages.length, 2);
    assert.equal((await threads.extractText([big]))[0]?.pages.length, 60);
  });

  test('parallel jobs spread over the threads and all come back', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => threads.validate(pdf)));
    assert.deepEqual(results, Array.from({ length: 8 }, () => 2));
  });
});

test('a closed PdfThreads refuses work', async () => {
  const threads = new PdfThreads(1);
  await threads.close();
  await assert.rejects(threads.validate(new Uint8Array(1)), (e: unknown) => e instanceof PdfError && e.code === 'CONVERTER_CLOSED');
});
