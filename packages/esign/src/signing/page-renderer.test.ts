import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PDFDocument } from 'pdf-lib';
import { MAX_PAGE_PIXELS, PageRenderer } from './page-renderer.ts';

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

/** A JPEG's pixel size, from its start-of-frame segment. */
function jpegSize(image: Buffer): { width: number; height: number } {
  for (let i = 2; i + 9 < image.length;) {
    const marker = image[i + 1]!;
    if (marker >= 0xc0 && marker <= 0xc2) return { height: image.readUInt16BE(i + 5), width: image.readUInt16BE(i + 7) };
    i += 2 + image.readUInt16BE(i + 2);
  }
  throw new Error('no frame');
}

test('a page of any size renders at most MAX_PAGE_PIXELS long; ordinary pages at the renderer\'s dpi', async () => {
  // PDF's largest page (14,400 pt square): 22,000 pixels a side at 110 dpi, ~1.9 GB for pdftoppm.
  const bytes = await pdf([[612, 792], [14_400, 14_400], [14_400, 200]]);
  const renderer = new PageRenderer({ maxProcesses: 1 });
  const source = () => Promise.resolve(bytes);
  assert.deepEqual(jpegSize(await renderer.jpeg('big', 1, source)), { width: 935, height: 1210 });
  for (const page of [2, 3]) {
    const size = jpegSize(await renderer.jpeg('big', page, source));
    assert.ok(Math.max(size.width, size.height) <= MAX_PAGE_PIXELS && Math.max(size.width, size.height) > MAX_PAGE_PIXELS - 10, JSON.stringify(size));
  }
});

test('cached renders are bounded in bytes too: past the bound the least recently used page is rendered again', async () => {
  const bytes = await pdf([[612, 792], [612, 792]]);
  let loads = 0;
  const source = () => (loads++, Promise.resolve(bytes));
  const tight = new PageRenderer({ dpi: 36, maxProcesses: 1, maxImageBytes: 1 });
  await tight.jpeg('d', 1, source);
  await tight.jpeg('d', 2, source);
  const before = loads;
  await tight.jpeg('d', 2, source);
  assert.equal(loads, before, 'the newest render stays, whatever its size');
  await tight.jpeg('d', 1, source);
  assert.equal(loads, before + 1, 'page 1 left the cache for page 2');
  const roomy = new PageRenderer({ dpi: 36, maxProcesses: 1 });
  loads = 0;
  await roomy.jpeg('d', 1, source);
  await roomy.jpeg('d', 2, source);
  await roomy.jpeg('d', 1, source);
  assert.equal(loads, 3, 'sizes once, each page once');
});
