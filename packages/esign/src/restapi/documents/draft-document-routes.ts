import type { FastifyInstance } from 'fastify';
import { changeDraftDocuments } from '../../domain/envelope/change-draft-documents.ts';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { toWireEnvelopeDocument } from '../../wire/to-wire-envelope.ts';
import { MAX_DOCUMENT_BYTES, RAW_DOCUMENT_TYPES, parseDocumentRemovals, parseDocumentUpserts, parseRawDocument } from './parse-document-upload.ts';

type EnvelopeParams = { accountId: string; envelopeId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/envelopes/:envelopeId/documents';

/**
 * A draft's documents added, replaced and deleted (EnvelopesApi.updateDocuments,
 * updateDocument, deleteDocuments; domain/envelope/change-draft-documents.ts). Scoped to the
 * caller's account like every envelope call: another account's envelope id is
 * ENVELOPE_DOES_NOT_EXIST, and nothing of it is read or changed.
 */
export function registerDraftDocumentRoutes(app: FastifyInstance, deps: { envelopes: EnvelopeDeps }): void {
  const d = deps.envelopes;

  app.put<{ Params: EnvelopeParams }>(BASE, async (request) => {
    const upsert = parseDocumentUpserts(request.body);
    const e = await changeDraftDocuments(d, request.params.accountId, request.params.envelopeId, { upsert, remove: [] });
    return { envelopeId: e.envelopeId, envelopeDocuments: e.documents.map((doc) => toWireEnvelopeDocument(e, doc)) };
  });

  app.delete<{ Params: EnvelopeParams }>(BASE, async (request) => {
    const remove = parseDocumentRemovals(request.body);
    const e = await changeDraftDocuments(d, request.params.accountId, request.params.envelopeId, { upsert: [], remove });
    return { envelopeId: e.envelopeId, envelopeDocuments: e.documents.map((doc) => toWireEnvelopeDocument(e, doc)) };
  });

  // updateDocument sends the file itself (Content-Type application/pdf): its bytes are read
  // only on this route, within the size bound of one document (plus the JSON form, as DocuSign
  // also takes a documents list here).
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(RAW_DOCUMENT_TYPES, { parseAs: 'buffer', bodyLimit: MAX_DOCUMENT_BYTES + 1 }, (_request, body, next) => next(null, body));
    scope.put<{ Params: EnvelopeParams & { documentId: string } }>(`${BASE}/:documentId`, async (request) => {
      const { accountId, envelopeId, documentId } = request.params;
      const current = await getEnvelope(d, accountId, envelopeId);
      const draft = Buffer.isBuffer(request.body)
        ? parseRawDocument({ documentId, bytes: request.body, contentType: request.headers['content-type'], contentDisposition: request.headers['content-disposition'], currentName: current.documents.find((x) => x.documentId === documentId)?.name })
        : parseDocumentUpserts(request.body)[0];
      if (!draft) throw new EsignError('INVALID_REQUEST_BODY', 'documents must list the document.');
      if (draft.documentId !== documentId) throw new EsignError('INVALID_REQUEST_BODY', `documents[0].documentId "${draft.documentId}" is not the documentId of the URL, "${documentId}".`);
      const e = await changeDraftDocuments(d, accountId, envelopeId, { upsert: [draft], remove: [] });
      const document = e.documents.find((x) => x.documentId === documentId);
      if (!document) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
      return toWireEnvelopeDocument(e, document);
    });
    done();
  });
}
