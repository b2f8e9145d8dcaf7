import type { DocumentText } from '../anchor/page-text.ts';
import type { PdfErrorCode } from '../pdf-error.ts';

/** A job for a pdf worker thread. */
export type ThreadRequest = { id: number; op: 'validate' | 'extractText'; pdfs: Uint8Array[] };

/** Its answer; a PdfError crosses as its code and detail, anything else as its message. */
export type ThreadReply =
  | { id: number; ok: true; result: number | DocumentText[] }
  | { id: number; ok: false; code?: PdfErrorCode; message: string };
