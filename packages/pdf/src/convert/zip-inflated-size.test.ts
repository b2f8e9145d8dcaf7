import { test } from 'node:test';
import assert from 'node:assert/strict';
import { zipInflatedSize } from './zip-inflated-size.ts';
import { zip } from '../../test/zip.fixture.ts';

test('sums the declared sizes of every entry', () => {
  const z = zip([{ name: 'a.xml', data: Buffer.alloc(1000, 'a') }, { name: 'b.xml', data: Buffer.alloc(5000, ' ') }]);
  assert.ok(z.length < 300, `${z.length} bytes`);
  assert.equal(zipInflatedSize(z), 6000);
});

test('a small file declaring gigabytes reports them', () => {
  assert.equal(zipInflatedSize(zip([{ name: 'word/document.xml', data: Buffer.from('x'), declare: 0xfffffffe }])), 0xfffffffe);
});

test('not a zip, or a truncated one, is undefined', () => {
  assert.equal(zipInflatedSize(Buffer.from('plain text, no zip here')), undefined);
  const z = zip([{ name: 'a', data: Buffer.alloc(10) }]);
  assert.equal(zipInflatedSize(z.subarray(z.length - 22)), undefined);
  assert.equal(zipInflatedSize(new Uint8Array(0)), undefined);
});

test('a real docx (written by the docx package) reads as a zip of its unpacked size', async () => {
  const { makeDocx } = await import('../../test/documents.fixture.ts');
  const size = zipInflatedSize(await makeDocx());
  assert.ok(size !== undefined && size > 1000 && size < 1_000_000, `size ${size}`);
});
