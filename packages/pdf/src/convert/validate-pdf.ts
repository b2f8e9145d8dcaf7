import { PDFDocument, EncryptedPDFError } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';
import { openWithPdfJs } from '../open-with-pdf-js.ts';

/**
 * Pages one document may have: every page is read for anchors, drawn on the signing page,
 * stamped and sealed on the one pdf thread, and a 50,000-page PDF of 25 MB held that thread a
 * whole minute. 2,000 pages read in about 2 s.
 */
export const MAX_DOCUMENT_PAGES = 2_000;

/** DOCUMENT_TOO_LARGE for a document of more than MAX_DOCUMENT_PAGES pages; `which` names it. */
export function assertPageCount(pages: number, which = 'It'): void {
  if (pages > MAX_DOCUMENT_PAGES) throw new PdfError('DOCUMENT_TOO_LARGE', `${which} has ${pages} pages; the limit is ${MAX_DOCUMENT_PAGES}.`);
}

/**
 * Checks that `bytes` is a PDF we can search and stamp: pdf.js must parse it and find pages,
 * and it must not be encrypted (pdf-lib cannot re-save encrypted files, and a user password
 * would hide the text), and have at most MAX_DOCUMENT_PAGES pages. Resolves with the page count.
 */
export async function validatePdf(bytes: Uint8Array): Promise<number> {
  // PDF 32000-1 §7.5.2: the header is the first line; readers tolerate junk in the first 1 KB.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.byteLength, 1024)).toString('latin1');
  if (!head.includes('%PDF-')) throw new PdfError('CORRUPT_DOCUMENT', 'It has no PDF header.');
  let pages: number;
  try {
    const doc = await openWithPdfJs(bytes);
    try {
      pages = doc.numPages;
      await doc.getPage(pages);
    } finally {
      await doc.destroy();
    }
  } catch (err) {
    if ((err as Error).name === 'PasswordException') throw new PdfError('ENCRYPTED_DOCUMENT', undefined, { cause: err });
    throw new PdfError('CORRUPT_DOCUMENT', 'It could not be parsed as a PDF.', { cause: err });
  }
  if (pages < 1) throw new PdfError('CORRUPT_DOCUMENT', 'It has no pages.');
  assertPageCount(pages);
  // Owner-password-only files open in pdf.js without a password, but pdf-lib cannot re-save
  // them. The trailer (or xref stream dictionary, never compressed) names /Encrypt.
  if (/\/Encrypt[\s/<]/.test(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1'))) {
    throw new PdfError('ENCRYPTED_DOCUMENT');
  }
  try {
    await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError) throw new PdfError('ENCRYPTED_DOCUMENT', undefined, { cause: err });
    throw new PdfError('CORRUPT_DOCUMENT', 'It could not be parsed as a PDF.', { cause: err });
  }
  return pages;
}
