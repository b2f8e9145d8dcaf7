import { inflateRawSync } from 'node:zlib';
import { PdfError } from '../pdf-error.ts';
import { readZipDirectory } from './zip-inflated-size.ts';

/** What a document's bytes are, whatever its fileExtension says. */
export type SniffedFormat =
  | { kind: 'docx' | 'odt'; inflatedSize: number }
  | { kind: 'zip'; inflatedSize: number }
  | { kind: 'damaged-zip' | 'doc' | 'rtf' | 'pdf' | 'html' | 'text' | 'binary' };

/** The LibreOffice formats a document is converted as (each with its import filter pinned). */
export type OfficeFormat = 'docx' | 'odt' | 'doc' | 'rtf' | 'txt';

const OLE2_MAGIC = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const ODT_MIMETYPE = 'application/vnd.oasis.opendocument.text';
const SNIFF_BYTES = 8192;

const startsWith = (bytes: Uint8Array, magic: readonly number[]): boolean => magic.every((b, i) => bytes[i] === b);
const head = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(SNIFF_BYTES, bytes.byteLength)).toString('latin1');

/**
 * The first zip entry's content as text: ODF's `mimetype`, which the format puts first (stored;
 * deflated by some writers). Bounded: at most 1 kB in, 200 bytes out.
 */
function firstEntryText(bytes: Uint8Array): string | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    const method = view.getUint16(8, true);
    const size = view.getUint32(18, true);
    const start = 30 + view.getUint16(26, true) + view.getUint16(28, true);
    if (size > 1024 || start + size > bytes.byteLength) return undefined;
    const data = bytes.subarray(start, start + size);
    if (method === 0) return Buffer.from(data).toString('latin1');
    if (method === 8) return inflateRawSync(data, { maxOutputLength: 200 }).toString('latin1');
  } catch {
    // Truncated or not deflate: not an ODF mimetype.
  }
  return undefined;
}

/**
 * Reads the format from the bytes (magic numbers, a zip's entry names), never from the name:
 * a file's extension is the sender's claim, and LibreOffice's own type detection would
 * otherwise follow the content wherever it leads (a zip bomb named .doc went straight in).
 */
export function sniffDocumentFormat(bytes: Uint8Array): SniffedFormat {
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || startsWith(bytes, [0x50, 0x4b, 0x05, 0x06])) {
    const dir = readZipDirectory(bytes);
    if (!dir) return { kind: 'damaged-zip' };
    if (dir.names.includes('[Content_Types].xml') && dir.names.some((n) => n.startsWith('word/'))) return { kind: 'docx', inflatedSize: dir.inflatedSize };
    if (dir.names[0] === 'mimetype' && firstEntryText(bytes) === ODT_MIMETYPE) return { kind: 'odt', inflatedSize: dir.inflatedSize };
    return { kind: 'zip', inflatedSize: dir.inflatedSize };
  }
  if (startsWith(bytes, OLE2_MAGIC)) return { kind: 'doc' };
  const text = head(bytes);
  if (text.startsWith('{\\rtf')) return { kind: 'rtf' };
  if (text.startsWith('%PDF-')) return { kind: 'pdf' };
  if (text.includes('\0')) return { kind: 'binary' };
  if (/^\s*(<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(text.replace(/^\uFEFF|^\xEF\xBB\xBF/, ''))) return { kind: 'html' };
  return { kind: 'text' };
}

const DESCRIBED: Readonly<Record<SniffedFormat['kind'], string>> = {
  docx: 'a Word (docx) document',
  odt: 'an OpenDocument text (odt)',
  zip: 'a zip archive that is neither docx nor odt',
  'damaged-zip': 'a damaged zip archive',
  doc: 'a Word 97-2003 (doc) document',
  rtf: 'an RTF document',
  pdf: 'a PDF',
  html: 'an HTML page',
  text: 'plain text',
  binary: 'binary data',
};

// What each declared office extension may really contain, and what it is then converted as.
// A .doc is often really RTF, or a docx renamed, and converts as what it is; HTML under .doc is
// refused rather than given to LibreOffice's HTML import: html documents go to Chromium.
const ACCEPTED: Readonly<Record<OfficeFormat, Partial<Record<SniffedFormat['kind'], OfficeFormat>>>> = {
  docx: { docx: 'docx' },
  odt: { odt: 'odt' },
  doc: { doc: 'doc', rtf: 'rtf', docx: 'docx' },
  rtf: { rtf: 'rtf' },
  txt: { text: 'txt', html: 'txt', rtf: 'txt' },
};

/**
 * The format an office document is converted as, from its bytes and its declared extension.
 * Any zip is first checked against `maxInflatedBytes` (DOCUMENT_TOO_LARGE), whatever it is
 * named; then bytes that are not what the extension claims are CORRUPT_DOCUMENT, naming what
 * they are.
 */
export function resolveOfficeFormat(bytes: Uint8Array, extension: OfficeFormat, limits: { maxInflatedBytes: number }): OfficeFormat {
  const sniffed = sniffDocumentFormat(bytes);
  if ('inflatedSize' in sniffed && sniffed.inflatedSize > limits.maxInflatedBytes) {
    throw new PdfError('DOCUMENT_TOO_LARGE', `Its ${bytes.byteLength} bytes would unpack to ${sniffed.inflatedSize}; the limit is ${limits.maxInflatedBytes}.`);
  }
  const format = ACCEPTED[extension][sniffed.kind];
  if (!format) {
    const hint = sniffed.kind === 'html' ? ' Send it with fileExtension "html".' : sniffed.kind === 'pdf' ? ' Send it with fileExtension "pdf".' : '';
    throw new PdfError('CORRUPT_DOCUMENT', `Its bytes are ${DESCRIBED[sniffed.kind]}, not ${extension}.${hint}`);
  }
  return format;
}

/** Binary formats Chromium would print as garbage when they arrive named .html. */
export function assertHtmlBytes(bytes: Uint8Array): void {
  const sniffed = sniffDocumentFormat(bytes);
  if (sniffed.kind === 'html' || sniffed.kind === 'text') return;
  throw new PdfError('CORRUPT_DOCUMENT', `Its bytes are ${DESCRIBED[sniffed.kind]}, not html.`);
}
