import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { PageRenderer } from './page-renderer.ts';

async function pdf(sizes: [number, number][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const size of sizes) doc.addPage(size);
  return doc.save();
}

test('page sizes in points and JPEG renders (real pdftoppm), cached per key and page', async () => {
  const bytes = await pdf([[612, 792], [842, 595]]);
  let loads = 0;
  const source = () => (loads++, Promise.resolve(bytes));
  const renderer = new PageRenderer({ dpi: 36, maxProcesses: 1 });
  assert.deepEqual(await renderer.pageSizes('d', source), [{ width: 612, height: 792 }, { width: 842, height: 595 }]);
  const [one, two, oneAgain] = await Promise.all([renderer.jpeg('d', 1, source), renderer.jpeg('d', 2, source), renderer.jpeg('d', 1, source)]);
  for (const image of [one, two]) assert.deepEqual([...image.subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
  assert.equal(oneAgain, one, 'the second request for page 1 is the cached render');
  assert.equal(loads, 3, 'sizes once, each page once');
  await assert.rejects(renderer.jpeg('d', 3, source), /pdftoppm exited/);
});
