import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createTemplate, getTemplate } from '../../domain/templates/create-template.ts';
import type { TemplateDeps } from '../../domain/templates/template-deps.ts';
import { deleteTemplate, updateTemplate } from '../../domain/templates/update-template.ts';
import { EsignError } from '../../errors.ts';
import { toWireTemplate, toWireTemplateDocumentEntry, toWireTemplateRecipients, toWireTemplateSummary } from '../../wire/to-wire-template.ts';
import { parseTemplateDefinition, parseTemplatePatch } from './parse-template-definition.ts';

type RawQuery = Record<string, string | string[] | undefined>;
type AccountParams = { accountId: string };
export type TemplateParams = AccountParams & { templateId: string };

export const BASE = '/restapi/v2.1/accounts/:accountId/templates';
// listTemplates pages; DocuSign's default and largest page.
const DEFAULT_COUNT = 100;
const MAX_COUNT = 2000;

function one(query: RawQuery, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}

function includes(query: RawQuery): Set<string> {
  const v = query.include;
  return new Set((Array.isArray(v) ? v.join(',') : (v ?? '')).split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
}

function userOf(request: FastifyRequest): string {
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

function integer(query: RawQuery, name: string, fallback: number, max: number): number {
  const text = one(query, name);
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) > max) throw new EsignError('INVALID_REQUEST_PARAMETER', `${name} must be an integer from 0 to ${max}, got "${text}".`);
  return Number(text);
}

/** A file name for Content-Disposition: the document's name, ASCII-safe, ending in .pdf. */
function pdfFileName(name: string): string {
  const base = name.replace(/\.[A-Za-z0-9]{1,10}$/, '').replace(/[^A-Za-z0-9 ._-]+/g, '_').trim() || 'document';
  return `${base}.pdf`;
}

/**
 * DocuSign's TemplatesApi (the SDK's paths): createTemplate, listTemplates, get, update,
 * listDocuments, getDocument, listRecipients, and delete both as `DELETE /templates/{id}` and as
 * the SDK does it (FoldersApi.moveEnvelopes to the recycle bin). Every route is account-scoped:
 * the API guard has checked the token's membership of :accountId, and the store reads only
 * that account's templates.
 */
export function registerTemplateRoutes(app: FastifyInstance, deps: TemplateDeps): void {
  app.post<{ Params: AccountParams }>(BASE, async (request, reply) => {
    const draft = parseTemplateDefinition(request.body);
    const template = await createTemplate(deps, { accountId: request.params.accountId, ownerUserId: userOf(request), draft });
    return reply.code(201).send(toWireTemplateSummary(template));
  });

  app.get<{ Params: AccountParams; Querystring: RawQuery }>(BASE, async (request) => {
    const q = request.query;
    const startPosition = integer(q, 'start_position', 0, Number.MAX_SAFE_INTEGER);
    const count = integer(q, 'count', DEFAULT_COUNT, MAX_COUNT);
    const searchText = one(q, 'search_text')?.trim();
    for (const refused of ['folder_ids', 'folder_types', 'template_ids', 'user_filter', 'order_by', 'shared_by_me', 'is_deleted_template_only']) {
      if (one(q, refused)) throw new EsignError('INVALID_REQUEST_PARAMETER', `${refused} is not supported for listTemplates yet (docs/esign-templates.md).`);
    }
    const { templates, totalSetSize } = await deps.templates.list(request.params.accountId, { startPosition, count, ...(searchText ? { searchText } : {}) });
    const wanted = includes(q);
    return {
      resultSetSize: String(templates.length),
      totalSetSize: String(totalSetSize),
      startPosition: String(startPosition),
      endPosition: String(Math.max(startPosition, startPosition + templates.length - 1)),
      envelopeTemplates: templates.map((t) => toWireTemplate(t, { recipients: wanted.has('recipients'), documents: wanted.has('documents'), tabs: wanted.has('tabs') })),
    };
  });

  app.get<{ Params: TemplateParams; Querystring: RawQuery }>(`${BASE}/:templateId`, async (request) => {
    const template = await getTemplate(deps, request.params.accountId, request.params.templateId);
    const wanted = includes(request.query);
    return toWireTemplate(template, { recipients: wanted.has('recipients') || wanted.has('tabs'), documents: wanted.has('documents'), tabs: wanted.has('tabs') });
  });

  app.put<{ Params: TemplateParams }>(`${BASE}/:templateId`, async (request) => {
    const { accountId, templateId } = request.params;
    const template = await updateTemplate(deps, accountId, templateId, parseTemplatePatch(request.body));
    // TemplateUpdateSummary: the SDK's model names the updated template's id envelopeId.
    return { envelopeId: template.templateId };
  });

  app.delete<{ Params: TemplateParams }>(`${BASE}/:templateId`, async (request) => {
    await deleteTemplate(deps, request.params.accountId, request.params.templateId);
    return {};
  });

  // Deleting a template the SDK's way (FoldersApi.moveEnvelopes into 'recyclebin') is the folder
  // routes' (restapi/folders/folder-routes.ts): one body may name envelopes and templates.

  app.get<{ Params: TemplateParams; Querystring: RawQuery }>(`${BASE}/:templateId/recipients`, async (request) => {
    const template = await getTemplate(deps, request.params.accountId, request.params.templateId);
    return toWireTemplateRecipients(template, one(request.query, 'include_tabs')?.toLowerCase() === 'true');
  });

  app.get<{ Params: TemplateParams }>(`${BASE}/:templateId/documents`, async (request) => {
    const template = await getTemplate(deps, request.params.accountId, request.params.templateId);
    return { templateId: template.templateId, templateDocuments: template.documents.map((d) => toWireTemplateDocumentEntry(template, d)) };
  });

  app.get<{ Params: TemplateParams & { documentId: string } }>(`${BASE}/:templateId/documents/:documentId`, async (request, reply) => {
    const { accountId, templateId, documentId } = request.params;
    const template = await getTemplate(deps, accountId, templateId);
    const document = template.documents.find((d) => d.documentId === documentId);
    const pdf = document ? await deps.templates.documentPdf(accountId, templateId, documentId) : undefined;
    if (!document || !pdf) throw new EsignError('DOCUMENT_DOES_NOT_EXIST', `documentId "${documentId}" is not in the template.`);
    return reply.type('application/pdf').header('content-disposition', `file; filename="${pdfFileName(document.name)}"`).send(Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength));
  });
}

