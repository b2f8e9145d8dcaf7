import { PDFDocument } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';

/**
 * The pixel budget of a signature image. The signing page's pad is 600×200; a drawn signature
 * larger than 2000×1000 is not one. The budget is checked from the header, before anything is
 * decoded: a 62 kB PNG can declare 8000×8000 and cost 680 MB and seconds of CPU to inflate.
 */
export const SIGNATURE_IMAGE_LIMITS = { maxWidth: 2000, maxHeight: 1000 } as const;

export type SignatureImageInfo = { kind: 'png' | 'jpg'; width: number; height: number };

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function invalid(detail: string): PdfError {
  return new PdfError('INVALID_SIGNATURE_IMAGE', detail);
}

/** Width and height from a PNG's IHDR, which the format requires to be the first chunk. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (bytes.byteLength < 33) throw invalid('It is truncated.');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ihdr = String.fromCharCode(bytes[12]!, bytes[13]!, bytes[14]!, bytes[15]!);
  if (view.getUint32(8) !== 13 || ihdr !== 'IHDR') throw invalid('Its header is damaged.');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but are not frames.
const isStartOfFrame = (marker: number): boolean => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/** Width and height from a JPEG's start-of-frame segment, walking the segments before it. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 2;
  while (at + 9 <= bytes.byteLength) {
    if (bytes[at] !== 0xff) throw invalid('Its segments are damaged.');
    const marker = bytes[at + 1]!;
    // Fill bytes and stand-alone markers (no length) are skipped.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (isStartOfFrame(marker)) return { width: view.getUint16(at + 7), height: view.getUint16(at + 5) };
    if (marker === 0xd9 || marker === 0xda) break;
    at += 2 + view.getUint16(at + 2);
  }
  throw invalid('It has no image frame.');
}

/**
 * The kind and size of a signature image, read from its header only, and checked against
 * {@link SIGNATURE_IMAGE_LIMITS}. Throws INVALID_SIGNATURE_IMAGE for anything else.
 */
export function readSignatureImage(bytes: Uint8Array, limits: { maxWidth: number; maxHeight: number } = SIGNATURE_IMAGE_LIMITS): SignatureImageInfo {
  let info: SignatureImageInfo;
  if (PNG_MAGIC.every((b, i) => bytes[i] === b)) info = { kind: 'png', ...pngSize(bytes) };
  else if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) info = { kind: 'jpg', ...jpegSize(bytes) };
  else throw new PdfError('INVALID_SIGNATURE_IMAGE');
  const { maxWidth, maxHeight } = limits;
  if (info.width < 1 || info.height < 1) throw invalid('It has no pixels.');
  if (info.width > maxWidth || info.height > maxHeight) {
    throw invalid(`It is ${info.width}×${info.height} pixels; the limit is ${maxWidth}×${maxHeight}.`);
  }
  return info;
}

/**
 * Checks a signature image the way stamping will use it: the header within the budget, then
 * decoded in full by the same decoder (pdf-lib's), so an image that passes here cannot fail the
 * stamp later. Run it on a pdf thread (PdfThreads.checkSignatureImage): decoding is synchronous.
 */
export async function checkSignatureImage(bytes: Uint8Array, limits: { maxWidth: number; maxHeight: number } = SIGNATURE_IMAGE_LIMITS): Promise<SignatureImageInfo> {
  const info = readSignatureImage(bytes, limits);
  const pdf = await PDFDocument.create();
  let decoded: { width: number; height: number };
  try {
    decoded = info.kind === 'png' ? await pdf.embedPng(bytes) : await pdf.embedJpg(bytes);
  } catch (err) {
    throw new PdfError('INVALID_SIGNATURE_IMAGE', 'It could not be decoded.', { cause: err });
  }
  if (decoded.width !== info.width || decoded.height !== info.height) throw invalid('Its header and its pixels disagree.');
  return info;
}
