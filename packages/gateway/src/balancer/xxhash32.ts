// xxHash32 (seed 0), the hash Kong's consistent_hashing.lua takes from luaxxhash. Written from the
// published algorithm (github.com/Cyan4973/xxHash, doc/xxhash_spec.md §XXH32).

const P1 = 2654435761;
const P2 = 2246822519;
const P3 = 3266489917;
const P4 = 668265263;
const P5 = 374761393;

function rotl(x: number, r: number): number {
  return (x << r) | (x >>> (32 - r));
}

function round(acc: number, lane: number): number {
  return Math.imul(rotl((acc + Math.imul(lane, P2)) | 0, 13), P1);
}

function lane(b: Uint8Array, i: number): number {
  return b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16) | (b[i + 3]! << 24);
}

/** xxHash32 of `len` bytes of `b`, seed 0, as an unsigned 32-bit integer. */
export function xxhash32Bytes(b: Uint8Array, len: number): number {
  let i = 0;
  let h: number;
  if (len >= 16) {
    let v1 = (P1 + P2) | 0;
    let v2 = P2 | 0;
    let v3 = 0;
    let v4 = -P1 | 0;
    while (i + 16 <= len) {
      v1 = round(v1, lane(b, i));
      v2 = round(v2, lane(b, i + 4));
      v3 = round(v3, lane(b, i + 8));
      v4 = round(v4, lane(b, i + 12));
      i += 16;
    }
    h = (rotl(v1, 1) + rotl(v2, 7) + rotl(v3, 12) + rotl(v4, 18)) | 0;
  } else {
    h = P5 | 0;
  }
  h = (h + len) | 0;
  while (i + 4 <= len) {
    h = Math.imul(rotl((h + Math.imul(lane(b, i), P3)) | 0, 17), P4);
    i += 4;
  }
  while (i < len) {
    h = Math.imul(rotl((h + Math.imul(b[i]!, P5)) | 0, 11), P1);
    i++;
  }
  h ^= h >>> 15;
  h = Math.imul(h, P2);
  h ^= h >>> 13;
  h = Math.imul(h, P3);
  h ^= h >>> 16;
  return h >>> 0;
}

const encoder = new TextEncoder();
// Reused between calls: hashing a request's value allocates nothing for short values.
let scratch = new Uint8Array(1024);

/** xxHash32 of a string's UTF-8 bytes (Lua strings are bytes), unsigned. */
export function xxhash32(text: string): number {
  if (text.length * 3 > scratch.length) scratch = new Uint8Array(text.length * 3);
  const { written } = encoder.encodeInto(text, scratch);
  return xxhash32Bytes(scratch, written);
}
