import type { DocumentDraft } from '../../domain/envelope/envelope-draft.ts';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { asksForNothing } from '../../domain/tabs/check-tab-fields.ts';
import { assertUnique, parseDocument } from '../envelopes/parse-envelope-definition.ts';

/** How many documents one call may add or replace (the create's bound). */
const MAX_DOCUMENTS = 50;
/** DocuSign's advice: no document above 25 MB (its resource limits; docs/esign-envelopes.md, Documents); the same bound for every upload here. */
export const MAX_DOCUMENT_BYTES = 25 * 1024 * 1024;

/** Refuses a document above the size bound, naming it. */
export function assertDocumentSize(d: DocumentDraft): void {
  if (d.bytes.byteLength > MAX_DOCUMENT_BYTES) throw new EsignError('INVALID_REQUEST_BODY', `documentId ${d.documentId} is ${d.bytes.byteLength} bytes; a document may be at most ${MAX_DOCUMENT_BYTES} bytes (25 MB).`);
}

/**
 * The `documents` of an EnvelopeDefinition body, as updateDocuments and deleteDocuments send it.
 * Any other field of the body that asks for something is refused by name: DocuSign ignores a
 * `status` there (docusign-esign-csharp-client#382), and a sender who meant to send would
 * otherwise get a 200 and a draft that never went out.
 */
export function documentsOf<T>(body: unknown, read: (doc: WireReader) => T): T[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON EnvelopeDefinition object.');
  const others = Object.entries(body).filter(([key, value]) => key.toLowerCase() !== 'documents' && !asksForNothing(value)).map(([key]) => key);
  if (others.length > 0) throw new EsignError('INVALID_REQUEST_BODY', `EnvelopeDefinition: only documents are read by this call; not supported here: ${others.join(', ')}.`);
  const list = new WireReader('', body).field('documents');
  const items = list.items();
  if (items.length === 0) list.fail('must list at least one document.');
  if (items.length > MAX_DOCUMENTS) list.fail(`may hold at most ${MAX_DOCUMENTS} documents.`);
  return items.map(read);
}

/** updateDocuments' documents: parsed and checked as a create's, unique, each within the size bound. */
export function parseDocumentUpserts(body: unknown): DocumentDraft[] {
  const documents = documentsOf(body, parseDocument);
  assertUnique(documents.map((d) => d.documentId), 'documentId', 'documents');
  documents.forEach(assertDocumentSize);
  return documents;
}

/** deleteDocuments' documents: their ids. */
export function parseDocumentRemovals(body: unknown): string[] {
  return [...new Set(documentsOf(body, (doc) => doc.field('documentId').string(10)))];
}

const EXTENSION_OF_TYPE = new Map([
  ['application/pdf', 'pdf'],
  ['application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'docx'],
  ['application/msword', 'doc'],
  ['text/html', 'html'],
  ['text/plain', 'txt'],
]);

/** The media types updateDocument's raw body may have (the SDK sends application/pdf). */
export const RAW_DOCUMENT_TYPES = [...EXTENSION_OF_TYPE.keys(), 'application/octet-stream'];

/**
 * updateDocument's raw body (the SDK's `documentFileBytes`, Content-Type application/pdf): the
 * bytes as a document with the URL's id. Its name comes from a Content-Disposition filename
 * when given (DocuSign reads the same header), else the document it replaces, else
 * "Document {id}"; its format from the filename's extension, else the media type.
 */
export function parseRawDocument(input: { documentId: string; bytes: Buffer; contentType: string | undefined; contentDisposition: string | undefined; currentName: string | undefined }): DocumentDraft {
  if (!/^[1-9]\d{0,9}$/.test(input.documentId)) throw new EsignError('INVALID_REQUEST_PARAMETER', `documentId must be a positive integer, got "${input.documentId}".`);
  const filename = /filename\s*=\s*"?([^";]+)"?/i.exec(input.contentDisposition ?? '')?.[1]?.trim();
  const name = (filename ?? input.currentName ?? `Document ${input.documentId}`).slice(0, 255);
  const type = input.contentType?.split(';')[0]?.trim().toLowerCase() ?? 'application/pdf';
  const fileExtension = /\.([A-Za-z0-9]{1,10})$/.exec(filename ?? '')?.[1]?.toLowerCase() ?? EXTENSION_OF_TYPE.get(type) ?? 'pdf';
  // The same checks as a document in JSON, through the same reader.
  const draft = parseDocument(new WireReader('document', { documentId: input.documentId, name, fileExtension, documentBase64: input.bytes.toString('base64') }));
  assertDocumentSize(draft);
  return draft;
}
