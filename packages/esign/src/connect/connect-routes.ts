import type { FastifyInstance } from 'fastify';
import { EsignError } from '../errors.ts';
import { WireReader } from '../wire/wire-reader.ts';
import type { ConnectRepository } from '../store/connect-repository.ts';
import type { CheckListener } from './check-listener.ts';
import { parseConnectConfiguration } from './parse-connect-configuration.ts';
import { toWireConnectConfigResults, toWireConnectConfiguration, toWireConnectFailure, toWireRetryResult } from './to-wire-connect.ts';

export type ConnectRouteDeps = {
  readonly repository: ConnectRepository;
  readonly checkListener: CheckListener;
  readonly now: () => Date;
  /** Wakes the delivery worker after a republish. */
  readonly wake: () => void;
};

type AccountParams = { accountId: string };
const BASE = '/restapi/v2.1/accounts/:accountId/connect';
// Republish takes at most this many envelopes per call (DocuSign's own limit is not published).
const MAX_REPUBLISH = 100;

function notFound(what: string): EsignError {
  return new EsignError('RESOURCE_NOT_FOUND', what);
}

function dateQuery(value: string | undefined, name: string): Date | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new EsignError('INVALID_REQUEST_PARAMETER', `${name} is not a date: "${value}".`);
  return date;
}

/**
 * DocuSign's ConnectApi (docusign-esign src/api/ConnectApi.js): configurations CRUD, the
 * failure log, and republish (retry_queue). Bodies are the SDK's models: ConnectCustomConfiguration,
 * ConnectConfigResults, ConnectLogs, ConnectFailureFilter, ConnectFailureResults.
 */
export function registerConnectRoutes(app: FastifyInstance, deps: ConnectRouteDeps): void {
  const r = deps.repository;

  app.get<{ Params: AccountParams }>(BASE, async (request) => toWireConnectConfigResults(await r.listConfigurations(request.params.accountId)));

  app.post<{ Params: AccountParams }>(BASE, async (request, reply) => {
    const { connectId: _ignored, ...draft } = parseConnectConfiguration(request.body);
    await deps.checkListener(draft.url, 'urlToPublishTo');
    const created = await r.createConfiguration(request.params.accountId, draft, deps.now());
    return reply.code(201).send(toWireConnectConfiguration(created));
  });

  // updateConfiguration: PUT /connect with the configuration's connectId in the body.
  app.put<{ Params: AccountParams }>(BASE, async (request) => {
    const { connectId, ...draft } = parseConnectConfiguration(request.body);
    if (connectId === undefined) throw new EsignError('INVALID_REQUEST_BODY', 'connectId is required to update a Connect configuration.');
    await deps.checkListener(draft.url, 'urlToPublishTo');
    if (!(await r.updateConfiguration(request.params.accountId, connectId, draft, deps.now()))) throw notFound(`No Connect configuration ${connectId} in this account.`);
    const saved = await r.findConfiguration(request.params.accountId, connectId);
    if (!saved) throw notFound(`No Connect configuration ${connectId} in this account.`);
    return toWireConnectConfiguration(saved);
  });

  app.get<{ Params: AccountParams; Querystring: { from_date?: string; to_date?: string } }>(`${BASE}/failures`, async (request) => {
    const from = dateQuery(request.query.from_date, 'from_date');
    const to = dateQuery(request.query.to_date, 'to_date');
    const failures = (await r.listFailures(request.params.accountId, { ...(from ? { from } : {}), ...(to ? { to } : {}) })).map(toWireConnectFailure);
    return { type: 'failures', totalRecords: String(failures.length), failures };
  });

  app.delete<{ Params: AccountParams & { failureId: string } }>(`${BASE}/failures/:failureId`, async (request) => {
    if (!(await r.discardFailure(request.params.accountId, request.params.failureId))) throw notFound(`No Connect failure ${request.params.failureId} in this account.`);
    return { failureId: request.params.failureId, status: 'deleted' };
  });

  app.put<{ Params: AccountParams }>(`${BASE}/envelopes/retry_queue`, async (request) => {
    if (typeof request.body !== 'object' || request.body === null || Array.isArray(request.body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON ConnectFailureFilter object.');
    const body = new WireReader('', request.body);
    const envelopeIds = [...new Set(body.field('envelopeIds').items().map((item) => item.string(100)))];
    if (envelopeIds.length === 0) body.field('envelopeIds').fail('must name at least one envelope.');
    if (envelopeIds.length > MAX_REPUBLISH) body.field('envelopeIds').fail(`may name at most ${MAX_REPUBLISH} envelopes.`);
    const requeued = await r.requeueFailures(request.params.accountId, envelopeIds, deps.now());
    if (requeued.length > 0) deps.wake();
    return { retryQueue: envelopeIds.flatMap((id) => toWireRetryResult(id, requeued.filter((row) => row.envelope_id === id))) };
  });

  app.put<{ Params: AccountParams & { envelopeId: string } }>(`${BASE}/envelopes/:envelopeId/retry_queue`, async (request) => {
    const requeued = await r.requeueFailures(request.params.accountId, [request.params.envelopeId], deps.now());
    if (requeued.length > 0) deps.wake();
    return { retryQueue: toWireRetryResult(request.params.envelopeId, requeued) };
  });

  app.get<{ Params: AccountParams & { connectId: string } }>(`${BASE}/:connectId`, async (request) => {
    const found = await r.findConfiguration(request.params.accountId, request.params.connectId);
    if (!found) throw notFound(`No Connect configuration ${request.params.connectId} in this account.`);
    // DocuSign answers getConfiguration with ConnectConfigResults holding the one configuration.
    return toWireConnectConfigResults([found]);
  });

  app.delete<{ Params: AccountParams & { connectId: string } }>(`${BASE}/:connectId`, async (request) => {
    if (!(await r.deleteConfiguration(request.params.accountId, request.params.connectId))) throw notFound(`No Connect configuration ${request.params.connectId} in this account.`);
    return {};
  });
}
