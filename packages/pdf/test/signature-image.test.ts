import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSignatureImage, PdfError, PdfThreads, readSignatureImage, SIGNATURE_IMAGE_LIMITS, SIGN_HERE_SIZE, stampSignatures } from '../src/index.ts';
import { makePdf, popplerText } from './documents.fixture.ts';
import { darkPixels, makeBlankPng, makeGarbagePng, makeSignaturePng, renderPage } from './raster.fixture.ts';

const refused = (detail: RegExp) => (e: unknown) => e instanceof PdfError && e.code === 'INVALID_SIGNATURE_IMAGE' && detail.test(e.message);
const threads = new PdfThreads(1);
after(() => threads.close());

test('a drawn signature within the budget passes, with its size read from the header', async () => {
  assert.deepEqual(readSignatureImage(makeSignaturePng(600, 200)), { kind: 'png', width: 600, height: 200 });
  assert.deepEqual(await checkSignatureImage(makeSignaturePng(600, 200)), { kind: 'png', width: 600, height: 200 });
  assert.deepEqual(await threads.checkSignatureImage(makeSignaturePng()), { kind: 'png', width: 300, height: 100 });
});

test('a small PNG declaring 8000×8000 pixels is refused from its header, before any decoding', async () => {
  const bomb = makeBlankPng(8000, 8000);
  assert.ok(bomb.byteLength < 100_000, `a ${bomb.byteLength}-byte file`);
  const limit = `${SIGNATURE_IMAGE_LIMITS.maxWidth}×${SIGNATURE_IMAGE_LIMITS.maxHeight}`;
  assert.throws(() => readSignatureImage(bomb), refused(new RegExp(`8000×8000 pixels; the limit is ${limit}`)));
  await assert.rejects(threads.checkSignatureImage(bomb), refused(/8000×8000/));
  // Stamping checks the same budget: it used to decode this image (seconds of CPU, 680 MB).
  await assert.rejects(stampSignatures(await makePdf(), [{ pageNumber: 1, x: 10, y: 10, signature: { type: 'image', image: bomb } }]), refused(/8000×8000/));
  await assert.rejects(threads.stampSignatures(await makePdf(), [{ pageNumber: 1, x: 10, y: 10, signature: { type: 'image', image: bomb } }]), refused(/8000×8000/));
});

test('any bytes after a good header are decoded in full and refused when they are not an image', async () => {
  const garbage = makeGarbagePng();
  assert.deepEqual(readSignatureImage(garbage), { kind: 'png', width: 300, height: 100 }, 'the header alone looks fine');
  await assert.rejects(checkSignatureImage(garbage), refused(/could not be decoded/));
  await assert.rejects(threads.checkSignatureImage(garbage), refused(/could not be decoded/));
  assert.throws(() => readSignatureImage(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])), refused(/truncated/));
  assert.throws(() => readSignatureImage(makeBlankPng(0, 10)), refused(/no pixels/));
  assert.throws(() => readSignatureImage(Buffer.from('GIF89a....')), refused(/not a PNG or JPEG/));
});

test('a JPEG is sized from its start-of-frame segment', () => {
  // SOI, an APP0 segment to walk past, then SOF0 declaring 120×40 (height first).
  const app0 = [0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  const sof = (h: number, w: number) => [0xff, 0xc0, 0x00, 0x11, 8, h >> 8, h & 255, w >> 8, w & 255, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  assert.deepEqual(readSignatureImage(new Uint8Array([0xff, 0xd8, ...app0, ...sof(40, 120), 0xff, 0xd9])), { kind: 'jpg', width: 120, height: 40 });
  assert.throws(() => readSignatureImage(new Uint8Array([0xff, 0xd8, ...app0, ...sof(9000, 9000), 0xff, 0xd9])), refused(/9000×9000/));
  assert.throws(() => readSignatureImage(new Uint8Array([0xff, 0xd8, ...app0, 0xff, 0xd9])), refused(/no image frame/));
});

test('stamping on a pdf thread gives what stamping here gives', async () => {
  const pdf = await makePdf();
  const stamps = [{ pageNumber: 1, x: 72, y: 100, signature: { type: 'image' as const, image: makeSignaturePng() }, caption: 'Signed by Ada' }];
  const here = await stampSignatures(pdf, stamps);
  const there = await threads.stampSignatures(pdf, stamps);
  // pdf-lib writes a fresh document id per save; the drawn page is what must agree.
  const box = { x: 72, y: 100, ...SIGN_HERE_SIZE };
  assert.equal(darkPixels(await renderPage(there, 1), box), darkPixels(await renderPage(here, 1), box));
  assert.ok(darkPixels(await renderPage(there, 1), box) > 300);
  assert.match(await popplerText(there), /Signed by Ada/);
  await assert.rejects(threads.stampSignatures(pdf, [{ ...stamps[0]!, pageNumber: 9 }]), (e: unknown) => e instanceof PdfError && e.code === 'INVALID_TAB_POSITION');
});
