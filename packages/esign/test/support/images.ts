import { crc32, deflateSync } from 'node:zlib';

/** Small images built byte by byte for logo tests (no image library needed). */

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/**
 * An RGB PNG of `width`×`height` filled with one colour. `declared` overrides the size written
 * in IHDR (a file lying about its canvas), `raw` replaces the pixel data before deflate.
 */
export function png(width: number, height: number, rgb: [number, number, number] = [200, 30, 30], options: { declared?: { width: number; height: number }; raw?: Buffer; after?: Buffer } = {}): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(options.declared?.width ?? width, 0);
  ihdr.writeUInt32BE(options.declared?.height ?? height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const raw = options.raw ?? Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
    options.after ?? Buffer.alloc(0),
  ]);
}

/** A 1×1 GIF89a (one black pixel). */
export function gif(): Buffer {
  return Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
}

/**
 * A 1×1 grey baseline JPEG: one quantisation table, a one-code DC and AC Huffman table each,
 * and a scan whose single block is "DC difference 0, end of block".
 */
export function jpeg(): Buffer {
  const counts = (first: number) => [first, ...Array.from({ length: 15 }, () => 0)];
  return Buffer.from([
    0xff, 0xd8,
    0xff, 0xdb, 0x00, 0x43, 0x00, ...Array.from({ length: 64 }, () => 1),
    0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00,
    0xff, 0xc4, 0x00, 0x14, 0x00, ...counts(1), 0x00,
    0xff, 0xc4, 0x00, 0x14, 0x10, ...counts(1), 0x00,
    0xff, 0xda, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3f, 0x00,
    0x3f,
    0xff, 0xd9,
  ]);
}
