import { boundaryOf, dispositionParams, MultipartError, parseMultipart, type Part } from '@signet/kit';
import { EsignError } from '../../errors.ts';

// 50 documents and the JSON part: the create's own bound on documents.
const MAX_PARTS = 51;

function bad(detail: string): never {
  throw new EsignError('INVALID_REQUEST_BODY', `multipart/form-data: ${detail}`);
}

function isJsonPart(part: Part): boolean {
  return (part.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/**
 * A create envelope request sent as multipart/form-data, DocuSign's way of sending documents as
 * bytes rather than base64 (its sendBinaryDocs example; "Multipart form requests" in DocuSign's
 * REST guide): one JSON part, the EnvelopeDefinition, whose documents carry no bytes, and one
 * part per document whose Content-Disposition names it (`file; filename="…"; documentid=N`).
 * The result is the same EnvelopeDefinition with each document's bytes in `documentBase64`, so
 * it is parsed and checked exactly as a JSON create is. A part naming no document of the JSON,
 * a document with two sources or none, and a second JSON part are refused, each named.
 */
export function multipartEnvelope(body: Buffer, contentType: string | undefined): unknown {
  let parts: Part[];
  try {
    parts = parseMultipart(body, boundaryOf(contentType), MAX_PARTS, 'parts (the envelope and 50 documents)');
  } catch (err) {
    if (err instanceof MultipartError) bad(err.message);
    throw err;
  }
  const json = parts.filter(isJsonPart);
  if (json.length !== 1) bad(`the request needs exactly one application/json part (the EnvelopeDefinition); it has ${json.length}.`);
  let definition: unknown;
  try {
    definition = JSON.parse((json[0] as Part).body.toString('utf8'));
  } catch {
    bad('the application/json part is not valid JSON.');
  }
  if (typeof definition !== 'object' || definition === null || Array.isArray(definition)) bad('the application/json part must be an EnvelopeDefinition object.');
  const files = new Map<string, Buffer>();
  for (const part of parts.filter((p) => !isJsonPart(p))) {
    const documentId = dispositionParams(part.headers.get('content-disposition')).get('documentid');
    if (documentId === undefined || documentId === '') bad('a document part has no documentid in its Content-Disposition.');
    if (files.has(documentId)) bad(`two parts carry documentid ${documentId}.`);
    files.set(documentId, part.body);
  }
  const record = definition as Record<string, unknown>;
  const key = Object.keys(record).find((k) => k.toLowerCase() === 'documents');
  const documents = key === undefined ? [] : record[key];
  if (!Array.isArray(documents)) bad('documents must be an array.');
  const used = new Set<string>();
  const merged = documents.map((doc: unknown, i) => {
    if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return doc;
    const entry = doc as Record<string, unknown>;
    const idKey = Object.keys(entry).find((k) => k.toLowerCase() === 'documentid');
    const id = idKey === undefined ? undefined : String(entry[idKey]).trim();
    const file = id === undefined ? undefined : files.get(id);
    if (!file) return doc;
    if (Object.keys(entry).some((k) => k.toLowerCase() === 'documentbase64' && entry[k] !== null && entry[k] !== undefined && entry[k] !== '')) bad(`documents[${i}] (documentId ${id}) has both documentBase64 and a file part.`);
    used.add(id as string);
    return { ...entry, documentBase64: file.toString('base64') };
  });
  for (const id of files.keys()) if (!used.has(id)) bad(`the part with documentid ${id} matches no document of the EnvelopeDefinition.`);
  return { ...record, ...(key === undefined ? {} : { [key]: merged }) };
}
