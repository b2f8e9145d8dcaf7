import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createBulkList, deleteBulkList, getBulkList, listCopies, updateBulkList } from '../domain/bulk-send/bulk-list-use-cases.ts';
import type { BulkSendDeps } from '../domain/bulk-send/bulk-ports.ts';
import { getBulkBatch, requestBulkSend, testBulkSend } from '../domain/bulk-send/bulk-send-request.ts';
import { EsignError } from '../errors.ts';
import { parseBulkSendingList } from '../wire/parse-bulk-sending-list.ts';
import { toWireBulkBatchStatus, toWireBulkBatchSummaries, toWireBulkListSummaries, toWireBulkSendResponse, toWireBulkSendTest, toWireBulkSendingList } from '../wire/to-wire-bulk-send.ts';
import { toWireEnvelope } from '../wire/to-wire-envelope.ts';
import { WireReader } from '../wire/wire-reader.ts';
import { checkModelFields } from '../wire/check-model-fields.ts';
import { assertMayChangeEnvelopes } from '../domain/envelope/envelope-access.ts';

type AccountParams = { accountId: string };
type ListParams = AccountParams & { bulkSendListId: string };
type BatchParams = AccountParams & { bulkSendBatchId: string };
type RawQuery = Record<string, string | string[] | undefined>;

const LISTS = '/restapi/v2.1/accounts/:accountId/bulk_send_lists';
const BATCHES = '/restapi/v2.1/accounts/:accountId/bulk_send_batch';

function userOf(request: FastifyRequest): string {
  // The API guard runs first on every /restapi request; a missing principal is a wiring mistake.
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

function one(query: RawQuery, name: string): string | undefined {
  const v = query[name];
  return Array.isArray(v) ? v[0] : v;
}

function position(query: RawQuery, name: string, fallback: number, max: number): number {
  const raw = one(query, name);
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `${name} must be a whole number, got "${raw}".`);
  return Math.min(n, max);
}

/** The filters getBulkSendBatches and getBulkSendBatchEnvelopes have that this service does not: refused by name. */
function refuseQuery(query: RawQuery, names: readonly string[]): void {
  const asked = names.filter((n) => (one(query, n) ?? '') !== '');
  if (asked.length > 0) throw new EsignError('INVALID_REQUEST_PARAMETER', `${asked.join(', ')}: not supported on this list (docs/esign-bulk-send.md).`);
}

/** BulkSendRequest: which draft to send, and the batch's name. */
function parseSendRequest(body: unknown): { envelopeId: string; batchName?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON BulkSendRequest object.');
  const r = new WireReader('', body);
  checkModelFields(r, 'BulkSendRequest', { envelopeOrTemplateId: { rule: 'honoured' }, batchName: { rule: 'honoured' } });
  const batchName = r.field('batchName').optionalString(100);
  return { envelopeId: r.field('envelopeOrTemplateId').string(100), ...(batchName !== undefined ? { batchName } : {}) };
}

/**
 * BulkEnvelopesApi (docusign-esign src/api/BulkEnvelopesApi.js): bulk send lists, the send and
 * test requests, batches and their envelopes. Behind the API guard; every use case names the
 * account, so another account's list, draft or batch is not found.
 */
export function registerBulkSendRoutes(app: FastifyInstance, deps: BulkSendDeps & { wake: () => void }): void {
  app.post<{ Params: AccountParams }>(LISTS, async (request) => {
    const draft = parseBulkSendingList(request.body);
    const list = await createBulkList(deps, request.params.accountId, userOf(request), draft);
    return toWireBulkSendingList(list, draft.copies);
  });
  app.get<{ Params: AccountParams }>(LISTS, async (request) => toWireBulkListSummaries(await deps.bulk.lists(request.params.accountId)));
  app.get<{ Params: ListParams }>(`${LISTS}/:bulkSendListId`, async (request) => {
    const list = await getBulkList(deps, request.params.accountId, request.params.bulkSendListId);
    return toWireBulkSendingList(list, await listCopies(deps, list));
  });
  app.put<{ Params: ListParams }>(`${LISTS}/:bulkSendListId`, async (request) => {
    const draft = parseBulkSendingList(request.body);
    const list = await updateBulkList(deps, request.params.accountId, request.params.bulkSendListId, draft);
    return toWireBulkSendingList(list, draft.copies);
  });
  app.delete<{ Params: ListParams }>(`${LISTS}/:bulkSendListId`, async (request) => {
    await deleteBulkList(deps, request.params.accountId, request.params.bulkSendListId);
    return { listId: request.params.bulkSendListId };
  });

  app.post<{ Params: ListParams }>(`${LISTS}/:bulkSendListId/test`, async (request) => {
    const { envelopeId } = parseSendRequest(request.body);
    await assertMayChangeEnvelopes(deps.envelopes.store, request.params.accountId, request.envelopeViewer, [envelopeId]);
    return toWireBulkSendTest(await testBulkSend(deps, request.params.accountId, request.params.bulkSendListId, envelopeId));
  });
  app.post<{ Params: ListParams }>(`${LISTS}/:bulkSendListId/send`, async (request, reply) => {
    const { envelopeId, batchName } = parseSendRequest(request.body);
    // The draft copied is the sender's own to send, as a send of it would be.
    await assertMayChangeEnvelopes(deps.envelopes.store, request.params.accountId, request.envelopeViewer, [envelopeId]);
    const batch = await requestBulkSend(deps, { accountId: request.params.accountId, userId: userOf(request), listId: request.params.bulkSendListId, envelopeId, ...(batchName !== undefined ? { batchName } : {}) });
    deps.wake();
    return reply.code(201).send(toWireBulkSendResponse(batch, await deps.bulk.queuedCount(request.params.accountId)));
  });

  const batchUri = (accountId: string, id: string) => `/v2.1/accounts/${accountId}/bulk_send_batch/${id}`;
  app.get<{ Params: AccountParams; Querystring: RawQuery }>(BATCHES, async (request) => {
    refuseQuery(request.query, ['batch_ids', 'from_date', 'to_date', 'search_text', 'status', 'user_id']);
    const start = position(request.query, 'start_position', 0, Number.MAX_SAFE_INTEGER);
    const count = position(request.query, 'count', 100, 1000);
    const { accountId } = request.params;
    return toWireBulkBatchSummaries(await deps.bulk.batches(accountId, start, count), start, (id) => batchUri(accountId, id), await deps.bulk.queuedCount(accountId));
  });
  app.get<{ Params: BatchParams }>(`${BATCHES}/:bulkSendBatchId`, async (request) => {
    const { accountId, bulkSendBatchId } = request.params;
    return toWireBulkBatchStatus(await getBulkBatch(deps, accountId, bulkSendBatchId), `${batchUri(accountId, bulkSendBatchId)}/envelopes`);
  });
  app.get<{ Params: BatchParams; Querystring: RawQuery }>(`${BATCHES}/:bulkSendBatchId/envelopes`, async (request) => {
    refuseQuery(request.query, ['order', 'order_by', 'search_text', 'status']);
    const { accountId, bulkSendBatchId } = request.params;
    await getBulkBatch(deps, accountId, bulkSendBatchId);
    const ids = await deps.bulk.batchEnvelopeIds(accountId, bulkSendBatchId);
    const start = position(request.query, 'start_position', 0, Number.MAX_SAFE_INTEGER);
    const count = position(request.query, 'count', 100, 1000);
    const page = ids.slice(start, start + count);
    const include = new Set((one(request.query, 'include') ?? '').split(',').map((s) => s.trim().toLowerCase()).filter(Boolean));
    const found = page.length === 0 ? [] : (await deps.envelopes.store.list(accountId, { envelopeIds: page, ...(request.envelopeViewer === null ? {} : { visibleTo: request.envelopeViewer }), startPosition: 0, count: page.length })).envelopes;
    const byId = new Map(found.map((e) => [e.envelopeId, e]));
    const envelopes = page.flatMap((id) => {
      const e = byId.get(id);
      return e ? [toWireEnvelope(e, { recipients: include.has('recipients'), documents: include.has('documents'), tabs: include.has('tabs'), customFields: include.has('custom_fields') })] : [];
    });
    return {
      resultSetSize: String(envelopes.length), totalSetSize: String(ids.length), startPosition: String(start),
      endPosition: String(Math.max(start, start + envelopes.length - 1)), envelopes,
    };
  });
  // Batch actions (resend, correct, void) and renaming a batch: refused by name, never answered as done.
  app.put<{ Params: BatchParams & { bulkAction: string } }>(`${BATCHES}/:bulkSendBatchId/:bulkAction`, (request) => {
    throw new EsignError('INVALID_REQUEST_PARAMETER', `bulk batch action "${request.params.bulkAction}" is not supported (docs/esign-bulk-send.md).`);
  });
  app.put<{ Params: BatchParams }>(`${BATCHES}/:bulkSendBatchId`, () => {
    throw new EsignError('INVALID_REQUEST_PARAMETER', 'renaming a bulk send batch (updateBulkSendBatchStatus) is not supported (docs/esign-bulk-send.md).');
  });
}
