import type { FastifyInstance } from 'fastify';
import type { DocumentDraft } from '../../domain/envelope/envelope-draft.ts';
import { changeTemplateDocuments } from '../../domain/templates/edit-template-content.ts';
import type { TemplateDeps } from '../../domain/templates/template-deps.ts';
import { EsignError } from '../../errors.ts';
import { toWireTemplateDocumentEntry } from '../../wire/to-wire-template.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { assertUnique, parseDocument } from '../envelopes/parse-envelope-definition.ts';
import { BASE, type TemplateParams } from './template-routes.ts';

const MAX_DOCUMENTS = 50;

/** The `documents` of an EnvelopeDefinition body, the way the SDK sends them to these calls. */
function documentsOf(body: unknown, what: (doc: WireReader) => DocumentDraft | string): (DocumentDraft | string)[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON EnvelopeDefinition object.');
  const list = new WireReader('', body).field('documents');
  const items = list.items();
  if (items.length === 0) list.fail('must list at least one document.');
  if (items.length > MAX_DOCUMENTS) list.fail(`may hold at most ${MAX_DOCUMENTS} documents.`);
  return items.map(what);
}

/**
 * Template documents added, replaced and removed (TemplatesApi updateDocuments, updateDocument,
 * deleteDocuments). New documents are converted and the tabs placed again by the envelopes'
 * prepareContent; envelopes already made from the template keep their own copies.
 */
export function registerTemplateDocumentRoutes(app: FastifyInstance, deps: TemplateDeps): void {
  app.put<{ Params: TemplateParams }>(`${BASE}/:templateId/documents`, async (request) => {
    const upsert = documentsOf(request.body, parseDocument) as DocumentDraft[];
    assertUnique(upsert.map((d) => d.documentId), 'documentId', 'documents');
    const t = await changeTemplateDocuments(deps, request.params.accountId, request.params.templateId, { upsert, remove: [] });
    return { templateId: t.templateId, templateDocuments: t.documents.map((d) => toWireTemplateDocumentEntry(t, d)) };
  });

  app.put<{ Params: TemplateParams & { documentId: string } }>(`${BASE}/:templateId/documents/:documentId`, async (request) => {
    const { accountId, templateId, documentId } = request.params;
    const [first] = documentsOf(request.body, parseDocument) as DocumentDraft[];
    if (!first) throw new EsignError('INVALID_REQUEST_BODY', 'documents must list the document.');
    if (first.documentId !== documentId) throw new EsignError('INVALID_REQUEST_BODY', `documents[0].documentId "${first.documentId}" is not the documentId of the URL, "${documentId}".`);
    const t = await changeTemplateDocuments(deps, accountId, templateId, { upsert: [first], remove: [] });
    const document = t.documents.find((d) => d.documentId === documentId);
    if (!document) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
    return toWireTemplateDocumentEntry(t, document);
  });

  app.delete<{ Params: TemplateParams }>(`${BASE}/:templateId/documents`, async (request) => {
    const remove = documentsOf(request.body, (doc) => doc.field('documentId').string(10)) as string[];
    const t = await changeTemplateDocuments(deps, request.params.accountId, request.params.templateId, { upsert: [], remove });
    return { templateId: t.templateId, templateDocuments: t.documents.map((d) => toWireTemplateDocumentEntry(t, d)) };
  });
}
