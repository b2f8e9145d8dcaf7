import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SYSTEM_FOLDERS, folderOf } from '../../domain/envelope/folders.ts';
import { moveEnvelopes } from '../../domain/envelope/move-envelopes.ts';
import type { EnvelopeDeps, EnvelopeQuery } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { assertRight } from '../assert-right.ts';
import type { TemplateStore } from '../../domain/templates/template-ports.ts';
import { deleteTemplate } from '../../domain/templates/update-template.ts';
import { toWireFolder } from '../../wire/to-wire-folder.ts';
import type { RawQuery } from '../envelopes/parse-status-changes-query.ts';
import { parseFoldersRequest } from './parse-folders-request.ts';
import { envelopeScope } from '../envelope-scope.ts';
import { assertMayChangeEnvelopes } from '../../domain/envelope/envelope-access.ts';

type AccountParams = { accountId: string };
type FolderParams = AccountParams & { folderId: string };

const BASE = '/restapi/v2.1/accounts/:accountId/folders';
/** listItems pages by 100, as DocuSign's do ("calls return 100 envelopes at a time"). */
const PAGE = 100;
/** listItems without from_date: the previous 30 days (FoldersApi.listItems' documented default). */
const DEFAULT_WINDOW_MS = 30 * 24 * 60 * 60 * 1000;
const STATUSES = new Set(['created', 'sent', 'delivered', 'signed', 'completed', 'declined', 'voided']);

function one(query: RawQuery, name: string): string | undefined {
  const v = query[name];
  const s = (Array.isArray(v) ? v[0] : v)?.trim();
  return s === undefined || s === '' ? undefined : s;
}

function invalid(detail: string): never {
  throw new EsignError('INVALID_REQUEST_PARAMETER', detail);
}

function dateParam(query: RawQuery, name: string): Date | undefined {
  const text = one(query, name);
  if (text === undefined) return undefined;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? invalid(`Query parameter '${name}' must be a valid DateTime, got "${text}".`) : d;
}

function callerOf(request: FastifyRequest): string {
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

/** Query parameters a folder call takes that ask for what does not exist here: refused by name. */
function refuseUnsupported(query: RawQuery, names: readonly string[]): void {
  for (const name of names) if (one(query, name) !== undefined) invalid(`Query parameter '${name}' is not supported: this server has only the system folders, owned by the caller.`);
}

/**
 * FoldersApi (docs/esign-envelopes.md, Folders): list the system folders, listItems of one,
 * moveEnvelopes into one (the recycle bin deletes, any other folder restores). Every call is
 * scoped to the account the API guard has checked; another account's envelope id is
 * ENVELOPE_DOES_NOT_EXIST, never moved.
 */
export function registerFolderRoutes(app: FastifyInstance, deps: { envelopes: EnvelopeDeps; templates?: TemplateStore }): void {
  const d = deps.envelopes;

  const count = async (request: FastifyRequest<{ Params: AccountParams }>, folder: (typeof SYSTEM_FOLDERS)[number], take: number) =>
    d.store.list(request.params.accountId, { folders: [folder.type], viewerUserId: callerOf(request), ...envelopeScope(request), startPosition: 0, count: Math.max(1, take) });

  app.get<{ Params: AccountParams; Querystring: RawQuery }>(BASE, async (request) => {
    refuseUnsupported(request.query, ['sub_folder_depth', 'user_filter']);
    // Template folders: none exist here, so "only" would be an empty answer to a real question.
    if (one(request.query, 'template')?.toLowerCase() === 'only') invalid("Query parameter 'template' value \"only\" is not supported: templates are not kept in folders here.");
    const withItems = one(request.query, 'include_items')?.toLowerCase() === 'true';
    const folders = [];
    for (const folder of SYSTEM_FOLDERS) {
      const { envelopes, totalSetSize } = await count(request, folder, withItems ? PAGE : 1);
      folders.push(toWireFolder(folder, { count: totalSetSize, ...(withItems ? { envelopes } : {}) }));
    }
    return { resultSetSize: String(folders.length), startPosition: '0', endPosition: String(folders.length - 1), totalSetSize: String(folders.length), folders };
  });

  app.get<{ Params: FolderParams; Querystring: RawQuery }>(`${BASE}/:folderId`, async (request) => {
    refuseUnsupported(request.query, ['owner_email', 'owner_name']);
    const folder = folderOf(request.params.folderId);
    const status = one(request.query, 'status')?.toLowerCase();
    const statuses = status === undefined || status === 'any' ? undefined : status.split(',').map((s) => s.trim()).filter(Boolean);
    for (const s of statuses ?? []) if (!STATUSES.has(s)) invalid(`Query parameter 'status' has an unknown status "${s}".`);
    const startText = one(request.query, 'start_position') ?? '0';
    if (!/^\d{1,7}$/.test(startText)) invalid(`Query parameter 'start_position' must be a non-negative integer, got "${startText}".`);
    const startPosition = Number(startText);
    const toDate = dateParam(request.query, 'to_date');
    const fromDate = dateParam(request.query, 'from_date') ?? new Date((toDate ?? d.clock()).getTime() - DEFAULT_WINDOW_MS);
    const searchText = one(request.query, 'search_text');
    const query: EnvelopeQuery = {
      folders: [folder.type],
      viewerUserId: callerOf(request),
      ...envelopeScope(request),
      fromDate,
      ...(toDate ? { toDate } : {}),
      ...(statuses ? { statuses } : {}),
      ...(searchText !== undefined ? { searchText } : {}),
      order: 'desc',
      startPosition,
      count: PAGE,
    };
    const { envelopes, totalSetSize } = await d.store.list(request.params.accountId, query);
    return {
      resultSetSize: String(envelopes.length),
      startPosition: String(startPosition),
      endPosition: String(Math.max(startPosition, startPosition + envelopes.length - 1)),
      totalSetSize: String(totalSetSize),
      folders: [toWireFolder(folder, { count: totalSetSize, envelopes })],
    };
  });

  app.put<{ Params: FolderParams }>(`${BASE}/:folderId`, async (request) => {
    const { accountId, folderId } = request.params;
    const move = parseFoldersRequest(request.body);
    // The SDK deletes a template by moving it to the recycle bin too: such ids are templates'.
    const templateIds: string[] = [];
    const envelopeIds: string[] = [];
    for (const id of new Set(move.envelopeIds)) {
      if (folderOf(folderId).type === 'recyclebin' && deps.templates && !(await d.store.find(accountId, id)) && (await deps.templates.find(accountId, id))) templateIds.push(id);
      else envelopeIds.push(id);
    }
    // The route is the folders' (send); deleting a template is editing templates, checked
    // before anything moves.
    if (templateIds.length > 0) assertRight(request, 'editTemplates');
    await assertMayChangeEnvelopes(d.store, accountId, request.envelopeViewer, envelopeIds);
    // Every id is checked before anything moves: an unknown one (or another account's) moves none.
    if (envelopeIds.length > 0) await moveEnvelopes(d, accountId, { folderId, ...move, envelopeIds });
    for (const id of templateIds) if (deps.templates) await deleteTemplate({ templates: deps.templates }, accountId, id);
    // DocuSign answers the move with no content of note; the SDK's FoldersResponse reads an empty object.
    return {};
  });
}
