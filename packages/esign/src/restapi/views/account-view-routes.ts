import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { getEnvelope } from '../../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../../domain/envelope/ports.ts';
import { EsignError } from '../../errors.ts';
import { newSecretToken, sha256Hex } from '../../security/secret-token.ts';
import type { AccountViewKind, AccountViewsRepository } from '../../store/account-views-repository.ts';
import { parseConsoleViewRequest, parseCorrectViewRequest, parseSenderViewRequest } from './parse-account-view-request.ts';

export type AccountViewRouteDeps = {
  readonly envelopes: EnvelopeDeps;
  readonly views: AccountViewsRepository;
  readonly publicUrl: string;
  /** How long a view URL can be redeemed (DocuSign's views: 5 minutes). */
  readonly viewTtlMs: number;
};

/** The path a sender, edit or console view URL is redeemed at (console/envelope-console-routes.ts). */
export const ACCOUNT_VIEW_PATH = '/console/view/';

type AccountParams = { accountId: string };
type EnvelopeParams = AccountParams & { envelopeId: string };

function userOf(request: FastifyRequest): string {
  // The API guard runs first on every /restapi request; a missing principal is a wiring mistake.
  if (!request.principal) throw new EsignError('AUTHORIZATION_INVALID_TOKEN');
  return request.principal.userId;
}

/**
 * createSenderView, createEditView, createCorrectView and createConsoleView (docusign-esign src/api/EnvelopesApi.js):
 * each answers `201 {url}`, a single-use URL that signs the token's user into the console, on
 * that draft's page, an envelope in process's page with its corrections (createCorrectView), or
 * the console's home (docs/esign-views.md).
 */
export function registerAccountViewRoutes(app: FastifyInstance, deps: AccountViewRouteDeps): void {
  const base = '/restapi/v2.1/accounts/:accountId';

  async function issue(request: FastifyRequest<{ Params: AccountParams }>, kind: AccountViewKind, envelopeId: string | undefined, returnUrl: string | undefined, sendAction: 'send' | 'redirect', query = ''): Promise<{ url: string }> {
    const token = newSecretToken();
    const now = deps.envelopes.clock();
    await deps.views.create({
      id: randomUUID(), tokenHash: sha256Hex(token), accountId: request.params.accountId, userId: userOf(request), kind,
      sendAction, ...(envelopeId !== undefined ? { envelopeId } : {}), ...(returnUrl !== undefined ? { returnUrl } : {}),
      createdAt: now, expiresAt: new Date(now.getTime() + deps.viewTtlMs),
    });
    return { url: `${deps.publicUrl}${ACCOUNT_VIEW_PATH}${token}${query}` };
  }

  for (const kind of ['sender', 'edit'] as const) {
    app.post<{ Params: EnvelopeParams }>(`${base}/envelopes/:envelopeId/views/${kind}`, async (request, reply) => {
      const view = parseSenderViewRequest(request.body);
      const envelope = await getEnvelope(deps.envelopes, request.params.accountId, request.params.envelopeId);
      if (envelope.status !== 'created') throw new EsignError('ENVELOPE_INVALID_STATUS', `The ${kind} view opens a draft (status created); this envelope is ${envelope.status}.`);
      // `send=1`: DocuSign's embeddedSending example swaps it for send=0 to start on the
      // recipients; both land on the same page here. What Send does is kept on the view, not in the URL.
      return reply.code(201).send(await issue(request, kind, envelope.envelopeId, view.returnUrl, view.sendButtonAction, kind === 'sender' ? '?send=1' : ''));
    });
  }

  app.post<{ Params: EnvelopeParams }>(`${base}/envelopes/:envelopeId/views/correct`, async (request, reply) => {
    const view = parseCorrectViewRequest(request.body);
    const envelope = await getEnvelope(deps.envelopes, request.params.accountId, request.params.envelopeId);
    // DocuSign corrects envelopes in process; a draft is edited (createEditView) instead.
    if (envelope.status !== 'sent' && envelope.status !== 'delivered') throw new EsignError('ENVELOPE_INVALID_STATUS', `The correct view opens an envelope in process (sent or delivered); this envelope is ${envelope.status}.`);
    return reply.code(201).send(await issue(request, 'correct', envelope.envelopeId, view.returnUrl, 'send'));
  });

  app.post<{ Params: AccountParams }>(`${base}/views/console`, async (request, reply) => {
    const view = parseConsoleViewRequest(request.body);
    // An envelope of another account is "does not exist", as everywhere.
    const envelopeId = view.envelopeId === undefined ? undefined : (await getEnvelope(deps.envelopes, request.params.accountId, view.envelopeId)).envelopeId;
    return reply.code(201).send(await issue(request, 'console', envelopeId, view.returnUrl, 'send'));
  });
}
