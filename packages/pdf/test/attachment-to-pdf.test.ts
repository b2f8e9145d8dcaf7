import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { PdfError, PdfThreads, attachmentToPdf, sniffAttachment } from '../src/index.ts';
import { makePdf } from './documents.fixture.ts';
import { makeBlankPng } from './raster.fixture.ts';

test('attachmentToPdf: a PDF is kept, a PNG becomes one Letter page, anything else (by its bytes) is refused; an image bomb too', async () => {
  const pdf = await makePdf();
  assert.deepEqual(await attachmentToPdf(pdf), { pdf, pages: (await PDFDocument.load(pdf)).getPageCount() });
  const fromPng = await attachmentToPdf(makeBlankPng(300, 200));
  const page = (await PDFDocument.load(fromPng.pdf)).getPage(0);
  assert.deepEqual([fromPng.pages, page.getWidth(), page.getHeight()], [1, 612, 792]);
  assert.equal(sniffAttachment(new TextEncoder().encode('GIF89a')), undefined);
  for (const [bytes, why] of [
    [new TextEncoder().encode('GIF89a\u0001\u0000'), /must be a PDF, PNG or JPEG/],
    [new TextEncoder().encode('%PDF-1.7 but nothing else'), /could not be parsed|no PDF|damaged/i],
    [makeBlankPng(8000, 8000), /8000×8000 pixels; the limit is 6000×6000/],
  ] as const) {
    await assert.rejects(attachmentToPdf(bytes), (e: unknown) => e instanceof PdfError && why.test(e.message));
  }
  const threads = new PdfThreads(1);
  try {
    assert.equal((await threads.attachmentToPdf(makeBlankPng(10, 10))).pages, 1);
  } finally {
    await threads.close();
  }
});
