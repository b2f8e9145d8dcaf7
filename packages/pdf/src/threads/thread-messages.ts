import type { DocumentText } from '../anchor/page-text.ts';
import type { PdfErrorCode } from '../pdf-error.ts';
import type { SignatureImageInfo } from '../stamp/signature-image.ts';
import type { FormField } from '../form/read-form-fields.ts';
import type { TabValueStamp } from '../stamp/draw-tab-values.ts';
import type { SignatureStamp } from '../stamp/stamp-signatures.ts';
import type { PdfInspection } from '../seal/inspect-signatures.ts';
import type { TimestampAuthority } from '../seal/request-timestamp.ts';

/** A job for a pdf worker thread, without its id; each op's answer is in {@link ThreadResults}. */
export type ThreadJob =
  | { op: 'validate'; pdf: Uint8Array }
  | { op: 'extractText'; pdfs: Uint8Array[] }
  | { op: 'checkSignatureImage'; image: Uint8Array }
  | { op: 'stamp'; pdf: Uint8Array; stamps: SignatureStamp[]; signatureFont?: Uint8Array }
  | { op: 'drawTabValues'; pdf: Uint8Array; stamps: TabValueStamp[] }
  | { op: 'readFormFields'; pdf: Uint8Array }
  | { op: 'removeFormFields'; pdf: Uint8Array; flatten: string[] }
  | { op: 'attachmentToPdf'; bytes: Uint8Array }
  | { op: 'inspectSignatures'; pdf: Uint8Array }
  | { op: 'timestampSeal'; pdf: Uint8Array; tsa: TimestampAuthority }
  | { op: 'addValidationData'; pdf: Uint8Array; timeoutMs?: number }
  | { op: 'addDocumentTimestamp'; pdf: Uint8Array; tsa: TimestampAuthority };

export type ThreadResults = {
  validate: number;
  extractText: DocumentText[];
  checkSignatureImage: SignatureImageInfo;
  stamp: Uint8Array;
  drawTabValues: Uint8Array;
  readFormFields: FormField[];
  removeFormFields: Uint8Array;
  attachmentToPdf: { pdf: Uint8Array; pages: number };
  inspectSignatures: PdfInspection;
  timestampSeal: { pdf: Uint8Array; genTime: Date | undefined };
  addValidationData: Uint8Array;
  addDocumentTimestamp: { pdf: Uint8Array; genTime: Date };
};

export type ThreadRequest = ThreadJob & { id: number };

/** Its answer; a PdfError crosses as its code and detail, anything else as its message. */
export type ThreadReply =
  | { id: number; ok: true; result: ThreadResults[keyof ThreadResults] }
  | { id: number; ok: false; code?: PdfErrorCode; message: string };
