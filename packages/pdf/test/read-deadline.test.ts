// What reading a PDF costs is what its content streams hold, not what the file weighs: a review
// made 28 KB files whose pages share one stream of a million text operations, and reading their
// text held the pdf thread for minutes, with no deadline. Reading now runs under the
// converter's deadline, like a conversion, and a thread that overruns it is replaced.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { buildConverter, PdfError } from '../src/index.ts';

/** `pages` pages drawing one shared, compressed content stream of `ops` text operations. */
function sharedStreamPdf(pages: number, ops: number): Uint8Array {
  const stream = deflateSync(Buffer.from(`BT /F1 1 Tf 0 0 Td\n${'(a) Tj 0 1 Td\n'.repeat(ops)}ET\n`), { level: 9 });
  const objects: (Buffer | string)[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Count ${pages} /Kids [${Array.from({ length: pages }, (_, i) => `${5 + i} 0 R`).join(' ')}] /Resources << /Font << /F1 3 0 R >> >> /MediaBox [0 0 612 792] >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    Buffer.concat([Buffer.from(`<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n`), stream, Buffer.from('\nendstream')]),
    ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /Contents 4 0 R >>'),
  ];
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  const offsets: number[] = [];
  let length = parts[0]!.length;
  objects.forEach((body, i) => {
    offsets.push(length);
    const part = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(body), Buffer.from('\nendobj\n')]);
    parts.push(part);
    length += part.length;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

test('reading the text of a PDF is bounded by the converter\'s deadline; the next reading gets a fresh thread', async (t) => {
  const converter = await buildConverter({ timeoutMs: 500 });
  t.after(() => converter.close());
  // Four pages of three million operations each: minutes of pdf.js, in a 100 KB file.
  const heavy = sharedStreamPdf(4, 3_000_000);
  assert.ok(heavy.byteLength < 200_000, String(heavy.byteLength));
  await assert.rejects(converter.extractText([heavy]), (e: unknown) => e instanceof PdfError && e.code === 'CONVERSION_TIMEOUT');
  await assert.rejects(converter.findAnchors([heavy], { anchorString: 'zz' }), (e: unknown) => e instanceof PdfError && e.code === 'CONVERSION_TIMEOUT');
  // The thread that overran was ended; a fresh one (started here, outside any deadline) reads the next.
  await converter.warmUpPdfThreads();
  const doc = await PDFDocument.create();
  doc.addPage().drawText('plain words', { x: 50, y: 700 });
  const [text] = await converter.extractText([await doc.save()]);
  assert.equal(text?.pages[0]?.runs.map((r) => r.str).join(''), 'plain words');
});
