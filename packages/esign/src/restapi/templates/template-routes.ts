import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createTemplate, getTemplate } from '../../domain/templates/create-template.ts';
import type { TemplateDeps } from '../../domain/templates/template-deps.ts';
import { deleteTemplate, updateTemplate } from '../../domain/templates/update-template.ts';
import { EsignError } from '../../errors.ts';
import { toWireTemplate, toWireTemplateDocumentEntry, toWireTemplateRecipients, toWireTemplateSummary, type TemplateIncludes } from '../../wire/to-wire-template.ts';
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

// `include` values DocuSign documents for templates that have nothing to show here (no template
// folders, favourites or PowerForms): refused by name rather than answered without them.
const INCLUDE_REFUSED = ['folders', 'favorite_template_status', 'powerforms', 'shared_template_folders'];

/** What `include` asks for: recipients, documents, tabs, custom_fields, notifications. */
function includes(query: RawQuery): TemplateIncludes {
  const v = query.include;
  const wanted = new Set((Array.isArray(v) ? v.join(',') : (v ?? '')).split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
  for (const refused of INCLUDE_REFUSED) {
    if (wanted.has(refused)) throw new EsignError('INVALID_REQUEST_PARAMETER', `include=${refused} is not supported for templates (docs/esign-templates.md).`);
  }
  return {
    recipients: wanted.has('recipients') || wanted.has('tabs'), documents: wanted.has('documents'), tabs: wanted.has('tabs'),
    customFields: wanted.has('custom_fields'), notification: wanted.has('notifications'),
  };
}

function userOf(request: FastifyRequest): string {
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

// listTemplates parameters that filter by what templates here do not have (folders, use, dates
// other than search, per-user sharing, link configurations).
const LIST_REFUSED = ['folder_ids', 'folder_types', 'shared_by_me', 'is_deleted_template_only', 'created_from_date', 'created_to_date', 'from_date', 'to_date', 'modified_from_date', 'modified_to_date', 'used_from_date', 'used_to_date', 'search_fields', 'user_id', 'link_configuration_id', 'is_download'];

/** One of the allowed values (case folded), or absent; anything else names the parameter and the values. */
function choice<T extends string>(query: RawQuery, name: string, allowed: readonly T[], note?: string): T | undefined {
  const text = one(query, name)?.trim().toLowerCase();
  if (text === undefined || text === '') return undefined;
  const found = allowed.find((a) => a === text);
  if (!found) throw new EsignError('INVALID_REQUEST_PARAMETER', `${name} must be one of ${allowed.join(', ')}, got "${text}"${note ? ` (${note})` : ''}.`);
  return found;
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
    const wanted = includes(q);
    const startPosition = integer(q, 'start_position', 0, Number.MAX_SAFE_INTEGER);
    const count = integer(q, 'count', DEFAULT_COUNT, MAX_COUNT);
    const searchText = one(q, 'search_text')?.trim();
    // Templates have no folders, dates of use or sharing beyond the account here: what would
    // filter by them is refused by name rather than answered unfiltered (docs/esign-templates.md).
    for (const refused of LIST_REFUSED) {
      if (one(q, refused)) throw new EsignError('INVALID_REQUEST_PARAMETER', `${refused} is not supported for listTemplates (docs/esign-templates.md).`);
    }
    const orderBy = choice(q, 'order_by', ['name', 'modified'], 'used: when a template was last used is not recorded');
    const order = choice(q, 'order', ['asc', 'desc']);
    const userFilter = choice(q, 'user_filter', ['owned_by_me', 'shared_with_me', 'all']);
    const templateIds = one(q, 'template_ids')?.split(',').map((s) => s.trim()).filter(Boolean);
    if (templateIds && templateIds.length > MAX_COUNT) throw new EsignError('INVALID_REQUEST_PARAMETER', `template_ids may name at most ${MAX_COUNT} templates.`);
    const owner = userFilter === 'owned_by_me' || userFilter === 'shared_with_me' ? { userId: userOf(request), mine: userFilter === 'owned_by_me' } : undefined;
    const { templates, totalSetSize } = await deps.templates.list(request.params.accountId, {
      startPosition, count, ...(searchText ? { searchText } : {}), ...(orderBy ? { orderBy } : {}), ...(order ? { order } : {}), ...(owner ? { owner } : {}), ...(templateIds ? { templateIds } : {}),
    });
    return {
      resultSetSize: String(templates.length),
      totalSetSize: String(totalSetSize),
      startPosition: String(startPosition),
      endPosition: String(Math.max(startPosition, startPosition + templates.length - 1)),
      envelopeTemplates: templates.map((t) => toWireTemplate(t, wanted)),
    };
  });

  app.get<{ Params: TemplateParams; Querystring: RawQuery }>(`${BASE}/:templateId`, async (request) => {
    const template = await getTemplate(deps, request.params.accountId, request.params.templateId);
    return toWireTemplate(template, includes(request.query));
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

