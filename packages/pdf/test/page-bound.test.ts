// A 25 MB PDF can hold 50,000 small pages, and the one pdf thread read them for a whole minute
// while every other account's documents waited. A document now has at most 2,000 pages: a PDF
// is refused when it is validated, a converted document before its text is read.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { extractText } from '../src/anchor/extract-text.ts';
import { MAX_DOCUMENT_PAGES, validatePdf } from '../src/convert/validate-pdf.ts';
import { PdfError } from '../src/pdf-error.ts';

async function pdfOf(pages: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage([200, 200]);
  return doc.save();
}

const tooLarge = (pattern: RegExp) => (err: unknown) => err instanceof PdfError && err.code === 'DOCUMENT_TOO_LARGE' && pattern.test(err.message);

test('a document of more than 2,000 pages is refused by validation and before its text is read; 2,000 pass', async () => {
  assert.equal(MAX_DOCUMENT_PAGES, 2_000);
  const [atLimit, over] = [await pdfOf(2_000), await pdfOf(2_001)];
  assert.equal(await validatePdf(atLimit), 2_000);
  await assert.rejects(validatePdf(over), tooLarge(/It has 2001 pages; the limit is 2000\./));
  await assert.rejects(extractText([await pdfOf(1), over]), tooLarge(/Document 2 has 2001 pages; the limit is 2000\./));
});
