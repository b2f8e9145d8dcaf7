import { createHash } from 'node:crypto';
import { crc32, inflateSync } from 'node:zlib';
import { EsignError } from '../../errors.ts';
import type { BrandLogo } from './brand.ts';

/** Largest logo file taken (bytes): DocuSign's own bound (AccountsApi.js updateBrandLogoByType: 300 KB). */
export const MAX_LOGO_BYTES = 300 * 1024;
/** Largest side and area of a logo once decoded: what a viewer's browser or mail client allocates. */
export const MAX_LOGO_SIDE = 2000;
export const MAX_LOGO_PIXELS = 2_000_000;

function invalid(why: string): never {
  throw new EsignError('BRAND_LOGO_INVALID', why);
}

/**
 * Checks an uploaded logo by its content, never by its name or declared type: it must be a
 * whole PNG, JPEG or GIF image (SVG and anything else refused: SVG carries script), parsed to
 * its end with nothing after it (no appended HTML or archive: a polyglot), of bounded size and
 * bounded decoded dimensions (a small file claiming a huge canvas is a decompression bomb). A
 * PNG's pixel data is inflated with a ceiling at the size its header declares. Returns what the
 * store keeps beside the bytes.
 */
export function checkLogo(bytes: Uint8Array): BrandLogo {
  if (bytes.length === 0) invalid('the logo is empty.');
  if (bytes.length > MAX_LOGO_BYTES) invalid(`the logo is ${bytes.length} bytes; at most ${MAX_LOGO_BYTES} are taken.`);
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const image = buf.subarray(0, 8).equals(PNG_SIGNATURE) ? { mediaType: 'image/png' as const, ...checkPng(buf) }
    : buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff ? { mediaType: 'image/jpeg' as const, ...checkJpeg(buf) }
      : /^GIF8[79]a/.test(buf.subarray(0, 6).toString('latin1')) ? { mediaType: 'image/gif' as const, ...checkGif(buf) }
        : invalid('the logo must be a PNG, JPEG or GIF image (SVG is not taken).');
  return { sha256: createHash('sha256').update(buf).digest('hex'), ...image };
}

function checkSize(width: number, height: number): { width: number; height: number } {
  if (width < 1 || height < 1) invalid('the logo has no pixels.');
  if (width > MAX_LOGO_SIDE || height > MAX_LOGO_SIDE || width * height > MAX_LOGO_PIXELS) {
    invalid(`the logo is ${width}×${height} pixels; at most ${MAX_LOGO_SIDE} on a side and ${MAX_LOGO_PIXELS} pixels are taken.`);
  }
  return { width, height };
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// Samples per pixel of each PNG colour type (PNG specification, IHDR).
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

function checkPng(buf: Buffer): { width: number; height: number } {
  let at = 8;
  let header: { width: number; height: number; bitsPerPixel: number; interlaced: boolean } | undefined;
  const idat: Buffer[] = [];
  for (;;) {
    if (at + 12 > buf.length) invalid('the PNG ends before its IEND chunk.');
    const length = buf.readUInt32BE(at);
    const type = buf.subarray(at + 4, at + 8).toString('latin1');
    const end = at + 12 + length;
    if (end > buf.length) invalid(`the PNG's ${type} chunk runs past the end of the file.`);
    if (crc32(buf.subarray(at + 4, at + 8 + length)) !== buf.readUInt32BE(at + 8 + length)) invalid(`the PNG's ${type} chunk is corrupt (CRC).`);
    const data = buf.subarray(at + 8, at + 8 + length);
    if (!header) {
      if (type !== 'IHDR' || length !== 13) invalid('the PNG does not start with its IHDR chunk.');
      const bitDepth = data[8] ?? 0;
      const channels = PNG_CHANNELS[data[9] ?? -1];
      if (channels === undefined || ![1, 2, 4, 8, 16].includes(bitDepth) || data[10] !== 0 || data[11] !== 0 || (data[12] ?? 2) > 1) invalid('the PNG header is not valid.');
      header = { ...checkSize(data.readUInt32BE(0), data.readUInt32BE(4)), bitsPerPixel: bitDepth * channels, interlaced: data[12] === 1 };
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') {
      if (end !== buf.length) invalid('the PNG has data after its IEND chunk.');
      break;
    } else if (/^[A-Z]/.test(type) && type !== 'PLTE') invalid(`the PNG has an unknown critical chunk ${JSON.stringify(type)}.`);
    at = end;
  }
  if (idat.length === 0) invalid('the PNG has no image data.');
  const expected = pngRawSize(header.width, header.height, header.bitsPerPixel, header.interlaced);
  let raw: Buffer;
  try {
    // One byte over the declared size is enough to know the data inflates to more than it says.
    raw = inflateSync(Buffer.concat(idat), { maxOutputLength: expected + 1 });
  } catch {
    invalid('the PNG image data does not inflate to the size its header declares.');
  }
  if (raw.length !== expected) invalid('the PNG image data does not inflate to the size its header declares.');
  return { width: header.width, height: header.height };
}

/** Filtered scanlines' size: a filter byte per row plus the row's bytes, per Adam7 pass when interlaced. */
function pngRawSize(width: number, height: number, bitsPerPixel: number, interlaced: boolean): number {
  const rows = (w: number, h: number) => (w === 0 || h === 0 ? 0 : h * (1 + Math.ceil((w * bitsPerPixel) / 8)));
  if (!interlaced) return rows(width, height);
  const passes = [[0, 0, 8, 8], [4, 0, 8, 8], [0, 4, 4, 8], [2, 0, 4, 4], [0, 2, 2, 4], [1, 0, 2, 2], [0, 1, 1, 2]] as const;
  return passes.reduce((sum, [x0, y0, dx, dy]) => sum + rows(Math.ceil((width - x0) / dx), Math.ceil((height - y0) / dy)), 0);
}

// JPEG frame markers carrying the image's size (SOF0-SOF15 less DHT, JPG and DAC).
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

function checkJpeg(buf: Buffer): { width: number; height: number } {
  let at = 2;
  let size: { width: number; height: number } | undefined;
  for (;;) {
    if (at + 4 > buf.length || buf[at] !== 0xff) invalid('the JPEG is not valid.');
    const marker = buf[at + 1] ?? 0;
    if (marker === 0xd9) invalid('the JPEG ends before its image data.');
    const length = buf.readUInt16BE(at + 2);
    if (length < 2 || at + 2 + length > buf.length) invalid('the JPEG is not valid.');
    if (SOF.has(marker)) {
      if (length < 7) invalid('the JPEG frame header is not valid.');
      size = checkSize(buf.readUInt16BE(at + 7), buf.readUInt16BE(at + 5));
    }
    at += 2 + length;
    if (marker === 0xda) break;
  }
  if (!size) invalid('the JPEG has no frame header.');
  // Entropy-coded data (and further scans) until the end-of-image marker, which must end the file.
  for (; at + 1 < buf.length; at++) {
    if (buf[at] !== 0xff) continue;
    const next = buf[at + 1] ?? 0;
    if (next === 0xd9) {
      if (at + 2 !== buf.length) invalid('the JPEG has data after its end marker.');
      return size;
    }
  }
  invalid('the JPEG has no end marker.');
}

function checkGif(buf: Buffer): { width: number; height: number } {
  if (buf.length < 13) invalid('the GIF is not valid.');
  const size = checkSize(buf.readUInt16LE(6), buf.readUInt16LE(8));
  const flags = buf[10] ?? 0;
  let at = 13 + ((flags & 0x80) !== 0 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  const subBlocks = () => {
    for (;;) {
      if (at >= buf.length) invalid('the GIF ends inside a block.');
      const n = buf[at] ?? 0;
      at += 1 + n;
      if (n === 0) return;
    }
  };
  let frames = 0;
  for (;;) {
    if (at >= buf.length) invalid('the GIF has no trailer.');
    const block = buf[at];
    if (block === 0x3b) {
      if (at + 1 !== buf.length) invalid('the GIF has data after its trailer.');
      break;
    }
    if (block === 0x21) {
      at += 2;
      subBlocks();
    } else if (block === 0x2c) {
      if (at + 10 > buf.length) invalid('the GIF is not valid.');
      const left = buf.readUInt16LE(at + 1), top = buf.readUInt16LE(at + 3), w = buf.readUInt16LE(at + 5), h = buf.readUInt16LE(at + 7);
      if (left + w > size.width || top + h > size.height) invalid('a GIF frame lies outside the image.');
      const local = buf[at + 9] ?? 0;
      at += 10 + ((local & 0x80) !== 0 ? 3 * 2 ** ((local & 0x07) + 1) : 0) + 1;
      subBlocks();
      frames += 1;
    } else invalid('the GIF is not valid.');
  }
  if (frames === 0) invalid('the GIF has no image.');
  return size;
}
