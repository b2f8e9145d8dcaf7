import { AppError, type ErrorCatalog } from '@signet/kit';

/**
 * The pdf package's one catalog. Codes describe the document, not the envelope: the envelope
 * service maps them to DocuSign's 400s (e.g. UNSUPPORTED_FORMAT → a bad fileExtension).
 */
export const PDF_ERRORS = {
  UNSUPPORTED_FORMAT: { status: 400, message: 'The document format is not supported.' },
  DOCUMENT_TOO_LARGE: { status: 400, message: 'The document is larger than the allowed size.' },
  CORRUPT_DOCUMENT: { status: 400, message: 'The document is damaged or is not in the format its extension says.' },
  ENCRYPTED_DOCUMENT: { status: 400, message: 'The document is encrypted or password-protected.' },
  CONVERSION_TIMEOUT: { status: 400, message: 'The document took too long to convert.' },
  CONVERSION_FAILED: { status: 500, message: 'The document could not be converted to PDF.' },
  INVALID_ANCHOR: { status: 400, message: 'The anchor options are invalid.' },
  INVALID_TAB_POSITION: { status: 400, message: 'A tab lies outside its document or page.' },
  INVALID_SIGNATURE_IMAGE: { status: 400, message: 'The signature image is not a PNG or JPEG.' },
  SEAL_FAILED: { status: 500, message: 'The document could not be digitally sealed.' },
  TIMESTAMP_FAILED: { status: 502, message: 'The timestamp authority did not give a valid timestamp.' },
  VALIDATION_DATA_FAILED: { status: 502, message: 'The certificates\' revocation data could not be gathered.' },
  CONVERTER_CLOSED: { status: 503, message: 'The converter is shut down.' },
  CONVERTER_BUSY: { status: 429, message: 'Too many documents are waiting for conversion; send again once some are done.' },
} as const satisfies ErrorCatalog;

export type PdfErrorCode = keyof typeof PDF_ERRORS;

/** The one error class of @signet/pdf: code → status → message from {@link PDF_ERRORS}. */
export class PdfError extends AppError<PdfErrorCode> {
  readonly status: number;
  /** What was appended to the catalog message (lets the error cross a worker thread). */
  readonly detail: string | undefined;

  constructor(code: PdfErrorCode, detail?: string, options?: ErrorOptions) {
    const { status, message } = PDF_ERRORS[code];
    super(code, detail ? `${message} ${detail}` : message, options);
    this.status = status;
    this.detail = detail;
  }

  toBody(): Record<string, unknown> {
    return { errorCode: this.code, message: this.message };
  }
}
