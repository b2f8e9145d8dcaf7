import { PdfError } from '../pdf-error.ts';

/** One signature's place in the file: its signed ranges and its /Contents hex string. */
export type SignatureSlot = {
  readonly byteRange: readonly [number, number, number, number];
  /** Offset of '<' and one past '>' of the /Contents hex string (= byteRange[1], byteRange[2]). */
  readonly contentsStart: number;
  readonly contentsEnd: number;
};

const BYTE_RANGE = /\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g;

/**
 * The signatures of a PDF this package wrote, in file order, found by their /ByteRange (the
 * way @signpdf places them). Only for our own output: a hostile file is read by
 * `inspectSignatures`, which goes through the parsed object graph instead.
 */
export function signatureSlots(pdf: Uint8Array): SignatureSlot[] {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1');
  const slots: SignatureSlot[] = [];
  for (const m of text.matchAll(BYTE_RANGE)) {
    const r = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as const;
    if (r[0] !== 0 || r[1] >= r[2] || r[2] + r[3] > pdf.byteLength || text[r[1]] !== '<' || text[r[2] - 1] !== '>') continue;
    slots.push({ byteRange: r, contentsStart: r[1], contentsEnd: r[2] });
  }
  return slots;
}

/** The DER inside a /Contents hex string, without the zero padding after it. */
export function slotContents(pdf: Uint8Array, slot: SignatureSlot): Uint8Array {
  const hex = Buffer.from(pdf.subarray(slot.contentsStart + 1, slot.contentsEnd - 1)).toString('latin1');
  const bytes = Buffer.from(hex, 'hex');
  // DER's outer length says where the blob ends (the rest is the placeholder's padding).
  if (bytes[0] !== 0x30) throw new PdfError('SEAL_FAILED', 'The signature holds no CMS.');
  const first = bytes[1] ?? 0;
  let length: number;
  let header: number;
  if (first < 0x80) {
    length = first;
    header = 2;
  } else {
    const n = first & 0x7f;
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + (bytes[2 + i] ?? 0);
    header = 2 + n;
  }
  return new Uint8Array(bytes.subarray(0, header + length));
}

/** Writes `der` into the slot's /Contents (zero-padded to the reserved size); the ranges are untouched. */
export function writeSlotContents(pdf: Uint8Array, slot: SignatureSlot, der: Uint8Array): Uint8Array {
  const room = slot.contentsEnd - slot.contentsStart - 2;
  const hex = Buffer.from(der).toString('hex');
  if (hex.length > room) throw new PdfError('SEAL_FAILED', `The signature needs ${hex.length / 2} bytes; the file reserved ${room / 2}.`);
  const out = new Uint8Array(pdf);
  out.set(Buffer.from(hex.padEnd(room, '0'), 'latin1'), slot.contentsStart + 1);
  return out;
}

/** The bytes a signature covers: the file minus its /Contents string. */
export function signedBytes(pdf: Uint8Array, slot: SignatureSlot): Uint8Array {
  const [a, b, c, d] = slot.byteRange;
  return Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
}

const PDF_DATE = /\/M\s*\(D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:(Z)|([+-])(\d{2})'?(\d{2})?'?)?\)/;

/**
 * The time a signature's dictionary claims (/M, ISO 32000-1 §7.9.4 date), where PAdES puts the
 * signer's claimed time instead of a CMS signing-time attribute. Looked for in the dictionary
 * text after /Contents (where @signpdf's placeholder writes it), up to its `endobj`.
 */
export function slotClaimedTime(pdf: Uint8Array, slot: SignatureSlot): string | undefined {
  const end = Math.min(pdf.byteLength, slot.contentsEnd + 4096);
  const text = Buffer.from(pdf.buffer, pdf.byteOffset + slot.contentsEnd, end - slot.contentsEnd).toString('latin1');
  const stop = text.indexOf('endobj');
  const m = PDF_DATE.exec(stop >= 0 ? text.slice(0, stop) : text);
  if (!m) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', sec = '00', , sign, oh = '00', om = '00'] = m;
  const offset = sign ? `${sign}${oh}:${om}` : 'Z';
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
