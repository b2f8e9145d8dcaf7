import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { assertConsoleEnvelope, assertConsoleRight } from './console-rights.ts';
import type { Envelope } from '../domain/envelope/envelope.ts';
import { getEnvelope } from '../domain/envelope/get-envelope.ts';
import type { EnvelopeDeps } from '../domain/envelope/ports.ts';
import { sendEnvelope } from '../domain/envelope/send-envelope.ts';
import { returnWithEvent } from '../domain/return-url.ts';
import { correctRecipients } from '../domain/envelope/correct-recipients.ts';
import { EsignError } from '../errors.ts';
import { sha256Hex } from '../security/secret-token.ts';
import type { AccountView, AccountViewsRepository } from '../store/account-views-repository.ts';
import type { UserRow } from '../store/schema.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { sessionUser, startSession } from '../web/session.ts';
import { PAGE_IMAGE_DPI, type PageImages } from './template-console-routes.ts';
import { deadViewPage, envelopePage } from './envelope-pages.ts';

const HTML = 'text/html; charset=utf-8';
const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;
/** How long a redeemed view is kept, so the page it opened can still read its returnUrl. */
export const ACCOUNT_VIEW_RETENTION_MS = 24 * 3_600_000;

export type EnvelopeConsoleDeps = { readonly envelopes: EnvelopeDeps; readonly views: AccountViewsRepository; readonly pages: PageImages };

type EnvelopeParams = { Params: { envelopeId: string } };

/**
 * The sender, edit and console views' side in the console (docs/esign-views.md): the single-use
 * URL is traded for a console session of the API's user, then the draft's page (review, Send,
 * "Save and close") or the console's home. Every envelope page checks that the signed-in user
 * belongs to the envelope's account.
 */
export function registerEnvelopeConsoleRoutes(app: FastifyInstance, ctx: EsignContext, deps: EnvelopeConsoleDeps): void {
  app.get<{ Params: { token: string } }>('/console/view/:token', async (request, reply) => {
    const now = ctx.now();
    const view = TOKEN.test(request.params.token) ? await deps.views.redeem(sha256Hex(request.params.token), now) : undefined;
    // A user removed from the account since the view was made gets nothing from it.
    if (!view || !(await ctx.store.accounts.isMember(view.userId, view.accountId))) {
      return reply.code(410).type(HTML).header('cache-control', 'no-store').send(deadViewPage());
    }
    await startSession(ctx, reply, view.userId);
    const to = view.envelopeId !== undefined ? `/console/envelopes/${view.envelopeId}?view=${view.id}` : '/console';
    return reply.code(303).header('cache-control', 'no-store').redirect(to);
  });

  async function signedIn(request: FastifyRequest, reply: FastifyReply, returnTo: string): Promise<UserRow | undefined> {
    const user = await sessionUser(ctx, request);
    if (!user) await reply.redirect(`/login?return_to=${encodeURIComponent(returnTo)}`, 303);
    return user;
  }

  /**
   * The envelope in one of the user's accounts, else ENVELOPE_DOES_NOT_EXIST (as the API
   * answers); USER_LACKS_PERMISSIONS when it is another member's the user may not `intent`.
   */
  async function envelopeOf(user: UserRow, envelopeId: string, intent: 'read' | 'change'): Promise<Envelope> {
    for (const account of await ctx.store.accounts.accountsOf(user.id)) {
      let envelope: Envelope;
      try {
        envelope = await getEnvelope(deps.envelopes, account.accountId, envelopeId);
      } catch (err) {
        if (!(err instanceof EsignError) || err.code !== 'ENVELOPE_DOES_NOT_EXIST') throw err;
        continue;
      }
      await assertConsoleEnvelope(ctx, user, envelope, intent);
      return envelope;
    }
    throw new EsignError('ENVELOPE_DOES_NOT_EXIST');
  }

  /** The view the form or URL names: only this user's, only for this envelope. */
  async function viewOf(user: UserRow, envelopeId: string, id: string | undefined): Promise<AccountView | undefined> {
    if (id === undefined || !/^[0-9a-f-]{36}$/.test(id)) return undefined;
    const view = await deps.views.redeemedById(id, user.id);
    return view?.envelopeId === envelopeId ? view : undefined;
  }

  const pdfOf = (e: Envelope, documentId: string) => async () => {
    const pdf = await deps.envelopes.store.documentPdf(e.accountId, e.envelopeId, documentId);
    if (!pdf) throw new EsignError('DOCUMENT_DOES_NOT_EXIST');
    return pdf;
  };

  async function show(request: FastifyRequest, reply: FastifyReply, user: UserRow, envelope: Envelope, view: AccountView | undefined, error?: EsignError) {
    const pageWidths = new Map<string, number[]>();
    for (const d of envelope.documents) {
      const sizes = await deps.pages.pageSizes(`envelope:${envelope.envelopeId}/${d.documentId}`, pdfOf(envelope, d.documentId));
      pageWidths.set(d.documentId, sizes.map((s) => Math.round((s.width * PAGE_IMAGE_DPI) / 72)));
    }
    const page = envelopePage({ user, csrf: csrfTokenFor(ctx, request, reply), envelope, viewId: view?.id, pageWidths, error: error?.message });
    return reply.code(error?.status ?? 200).type(HTML).header('cache-control', 'no-store').send(page);
  }

  app.get<EnvelopeParams & { Querystring: { view?: string } }>('/console/envelopes/:envelopeId', async (request, reply) => {
    const user = await signedIn(request, reply, `/console/envelopes/${encodeURIComponent(request.params.envelopeId)}`);
    if (!user) return reply;
    const envelope = await envelopeOf(user, request.params.envelopeId, 'read');
    return show(request, reply, user, envelope, await viewOf(user, envelope.envelopeId, typeof request.query.view === 'string' ? request.query.view : undefined));
  });

  app.get<{ Params: { envelopeId: string; documentId: string; page: string } }>('/console/envelopes/:envelopeId/documents/:documentId/pages/:page', async (request, reply) => {
    const user = await sessionUser(ctx, request);
    if (!user) throw new EsignError('ENVELOPE_DOES_NOT_EXIST');
    const envelope = await envelopeOf(user, request.params.envelopeId, 'read');
    const doc = envelope.documents.find((d) => d.documentId === request.params.documentId);
    const page = Number(request.params.page);
    if (!doc || !Number.isInteger(page) || page < 1 || page > doc.pageCount) throw new EsignError('RESOURCE_NOT_FOUND');
    const jpeg = await deps.pages.jpeg(`envelope:${envelope.envelopeId}/${doc.documentId}`, page, pdfOf(envelope, doc.documentId));
    return reply.type('image/jpeg').header('cache-control', 'private, max-age=600').send(jpeg);
  });

  app.post<EnvelopeParams>('/console/envelopes/:envelopeId/send', async (request, reply) => {
    const user = await signedIn(request, reply, `/console/envelopes/${encodeURIComponent(request.params.envelopeId)}`);
    if (!user) return reply;
    assertCsrf(request);
    const envelope = await envelopeOf(user, request.params.envelopeId, 'change');
    await assertConsoleRight(ctx, user.id, envelope.accountId, 'send');
    const view = await viewOf(user, envelope.envelopeId, formField(request.body, 'view'));
    // sendButtonAction "redirect": the integrator sends it; the page only says the sender chose Send.
    if (view?.sendAction === 'redirect' && view.returnUrl !== undefined) return reply.code(303).redirect(returnWithEvent(view.returnUrl, 'Send'));
    try {
      await sendEnvelope(deps.envelopes, envelope.accountId, envelope.envelopeId);
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose) throw err;
      return show(request, reply, user, await getEnvelope(deps.envelopes, envelope.accountId, envelope.envelopeId), view, err);
    }
    return reply.code(303).redirect(view?.returnUrl !== undefined ? returnWithEvent(view.returnUrl, 'Send') : `/console/envelopes/${envelope.envelopeId}`);
  });

  // The correct view's form: updateRecipients' own use case, so its rules and effects (a new
  // address gets a fresh link, the old one dies) are the API's.
  app.post<{ Params: { envelopeId: string; recipientId: string } }>('/console/envelopes/:envelopeId/recipients/:recipientId', async (request, reply) => {
    const user = await signedIn(request, reply, `/console/envelopes/${encodeURIComponent(request.params.envelopeId)}`);
    if (!user) return reply;
    assertCsrf(request);
    const envelope = await envelopeOf(user, request.params.envelopeId, 'change');
    await assertConsoleRight(ctx, user.id, envelope.accountId, 'send');
    const view = await viewOf(user, envelope.envelopeId, formField(request.body, 'view'));
    const recipient = envelope.recipients.find((r) => r.recipientId === request.params.recipientId);
    if (!recipient) throw new EsignError('UNKNOWN_ENVELOPE_RECIPIENT');
    const name = formField(request.body, 'name')?.trim() ?? '';
    const email = formField(request.body, 'email')?.trim() ?? '';
    let failure: EsignError | undefined;
    try {
      const results = await correctRecipients(deps.envelopes, envelope.accountId, envelope.envelopeId, [{ recipientId: recipient.recipientId, type: recipient.type, ...(name !== '' ? { name } : {}), ...(email !== '' ? { email } : {}) }]);
      const problem = results[0]?.errorDetails;
      if (problem) failure = new EsignError('INVALID_REQUEST_PARAMETER', problem.message);
    } catch (err) {
      if (!(err instanceof EsignError) || !err.expose) throw err;
      failure = err;
    }
    if (failure) return show(request, reply, user, await getEnvelope(deps.envelopes, envelope.accountId, envelope.envelopeId), view, failure);
    return reply.code(303).redirect(`/console/envelopes/${envelope.envelopeId}${view ? `?view=${view.id}` : ''}`);
  });

  app.post<EnvelopeParams>('/console/envelopes/:envelopeId/close', async (request, reply) => {
    const user = await signedIn(request, reply, `/console/envelopes/${encodeURIComponent(request.params.envelopeId)}`);
    if (!user) return reply;
    assertCsrf(request);
    const envelope = await envelopeOf(user, request.params.envelopeId, 'change');
    await assertConsoleRight(ctx, user.id, envelope.accountId, 'send');
    const view = await viewOf(user, envelope.envelopeId, formField(request.body, 'view'));
    return reply.code(303).redirect(view?.returnUrl !== undefined ? returnWithEvent(view.returnUrl, 'Save') : '/console');
  });
}
