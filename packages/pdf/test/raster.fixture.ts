import { execFile } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { deflateSync } from 'node:zlib';
import { crc32 } from './zip.fixture.ts';

const run = promisify(execFile);

/** A grey-scale raster of one page; at 72 dpi one pixel is one point, origin top-left. */
export type Raster = { width: number; height: number; pixels: Uint8Array; stderr: string };

/** Renders `page` (1-based) with poppler's pdftoppm at 72 dpi, the reference renderer. */
export async function renderPage(pdf: Uint8Array, page: number): Promise<Raster> {
  const dir = await mkdtemp(join(tmpdir(), 'signet-ppm-'));
  try {
    await writeFile(join(dir, 'in.pdf'), pdf);
    const { stderr } = await run('pdftoppm', ['-r', '72', '-gray', '-f', String(page), '-l', String(page), join(dir, 'in.pdf'), join(dir, 'out')]);
    const [file] = (await readdir(dir)).filter((f) => f.endsWith('.pgm'));
    if (!file) throw new Error('pdftoppm wrote no page');
    const pgm = await readFile(join(dir, file));
    // Binary PGM: "P5\n<width> <height>\n<maxval>\n" then one byte per pixel.
    const header = /^P5\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(pgm.subarray(0, 50).toString('latin1'));
    if (!header) throw new Error('not a binary PGM');
    const width = Number(header[1]);
    const height = Number(header[2]);
    return { stderr, width, height, pixels: new Uint8Array(pgm.subarray(header[0].length, header[0].length + width * height)) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Pixels darker than `threshold` inside a box given in points from the top-left. */
export function darkPixels(r: Raster, box: { x: number; y: number; width: number; height: number }, threshold = 160): number {
  let n = 0;
  for (let y = Math.max(0, Math.floor(box.y)); y < Math.min(r.height, Math.ceil(box.y + box.height)); y++) {
    for (let x = Math.max(0, Math.floor(box.x)); x < Math.min(r.width, Math.ceil(box.x + box.width)); x++) {
      if (r.pixels[y * r.width + x]! < threshold) n++;
    }
  }
  return n;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * A drawn-signature PNG (RGBA, transparent background) with a thick dark zig-zag stroke across
 * its whole width, like what a signature pad produces.
 */
export function makeSignaturePng(width = 300, height = 100): Uint8Array {
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    for (let x = 0; x < width; x++) {
      const stroke = Math.abs(y - (height / 2 + (height / 3) * Math.sin(x / 15))) < 6;
      const o = y * (width * 4 + 1) + 1 + x * 4;
      raw[o] = 10; raw[o + 1] = 20; raw[o + 2] = 90; raw[o + 3] = stroke ? 255 : 0;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a', 'hex'),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', new Uint8Array(0)),
  ]);
}

/**
 * A PNG whose header declares `width`×`height` one-bit grey pixels, all black: it compresses to
 * a few kilobytes and costs width×height×4 bytes to decode (the decompression-bomb signature).
 */
export function makeBlankPng(width: number, height: number): Uint8Array {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // grey
  const raw = Buffer.alloc((Math.ceil(width / 8) + 1) * height);
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw)), chunk('IEND', new Uint8Array(0))]);
}

/** A PNG with a good header and pixel data that is not zlib at all: "any bytes after the magic". */
export function makeGarbagePng(width = 300, height = 100): Uint8Array {
  const good = Buffer.from(makeSignaturePng(width, height));
  const ihdrEnd = 8 + 8 + 13 + 4;
  const garbage = Buffer.alloc(500, 0x5a);
  return Buffer.concat([good.subarray(0, ihdrEnd), chunk('IDAT', garbage), chunk('IEND', new Uint8Array(0))]);
}
