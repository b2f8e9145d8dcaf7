// One account could queue hundreds of documents (500 API calls per 30 s are allowed) and every
// other account's next document waited behind all of them: each engine's queue was one FIFO.
// The queues now serve tenants in turn, and refuse a tenant's document past a bound of waiting ones.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { buildConverter, PdfError } from '../src/index.ts';

test('the converter serves tenants in turn and bounds what one tenant may have waiting', async (t) => {
  const converter = await buildConverter({ pdfThreads: 1, maxWaitingPerTenant: 2 });
  t.after(() => converter.close());
  await converter.warmUpPdfThreads();
  const doc = await PDFDocument.create();
  doc.addPage().drawText('turns', { x: 50, y: 700 });
  const bytes = await doc.save();

  const finished: string[] = [];
  const track = (name: string, work: Promise<unknown>): Promise<void> => work.then(() => void finished.push(name));
  const convert = (tenant: string): Promise<Uint8Array> => converter.convert({ bytes, fileExtension: 'pdf', tenant });
  // a1 takes the one pdf thread; a2 and a3 wait; a fourth of A's is one too many.
  const runs = [track('a1', convert('A')), track('a2', convert('A')), track('a3', convert('A'))];
  await assert.rejects(convert('A'), (e: unknown) => e instanceof PdfError && e.code === 'CONVERTER_BUSY' && e.status === 429);
  runs.push(track('b1', convert('B')), track('text', converter.extractText([bytes])));
  assert.equal(converter.stats().waiting, 4);
  await Promise.all(runs);
  // FIFO would have been a1, a2, a3, b1, text: A, whose a1 ran, waits for the others' first.
  assert.deepEqual(finished, ['a1', 'b1', 'text', 'a2', 'a3']);
});
