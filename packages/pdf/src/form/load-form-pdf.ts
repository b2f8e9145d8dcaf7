import { PDFDocument } from 'pdf-lib';
import { PdfError } from '../pdf-error.ts';

/** An uploaded PDF opened to read or change its form: ENCRYPTED_DOCUMENT or CORRUPT_DOCUMENT when pdf-lib cannot. */
export async function loadFormPdf(pdfBytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(pdfBytes, { updateMetadata: false });
  } catch (err) {
    const encrypted = err instanceof Error && /encrypt/i.test(err.message);
    throw new PdfError(encrypted ? 'ENCRYPTED_DOCUMENT' : 'CORRUPT_DOCUMENT', undefined, { cause: err });
  }
}
