// Brings @fastify/cookie's reply.setCookie types into scope.
import type {} from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { EsignContext } from '../context.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { SigningRepository } from '../store/signing-repository.ts';
import { cookieSecurity } from '../web/framing.ts';
import { returnWithEvent } from '../domain/return-url.ts';
import { SESSION_COOKIE, SESSION_REF } from './resolve-signer.ts';
import { unknownLinkPage } from './signing-pages.ts';

/**
 * How long a used or expired recipient view still sends the browser back to the integrator with
 * `ttl_expired`: long enough for a reload or a back button, not forever, so an old URL from a
 * log or history is not a standing redirect to wherever the integrator's page once was.
 */
export const DEAD_VIEW_REDIRECT_GRACE_MS = 3_600_000;
/** How long a dead recipient view row is kept (then purged, and its URL is simply unknown). */
export const RECIPIENT_VIEW_RETENTION_MS = 7 * 86_400_000;

/**
 * GET /signing/view/{token}: redeems a createRecipientView URL once. The URL is a bearer
 * secret that travels through the integrator's page, logs and browser history, so it works
 * only once and only for `viewTtlMs`; redeeming trades it for an HttpOnly session cookie scoped
 * to /signing. A used or expired URL sends the browser back with DocuSign's `ttl_expired` for
 * DEAD_VIEW_REDIRECT_GRACE_MS after its expiry, and answers an "expired" page after that.
 */
export function registerRecipientViewRedeem(app: FastifyInstance, deps: { ctx: EsignContext; signing: SigningRepository; sessionTtlMs: number }): void {
  app.get<{ Params: { token: string } }>('/signing/view/:token', async (request, reply) => {
    const now = deps.ctx.now();
    const view = /^[A-Za-z0-9_-]{20,100}$/.test(request.params.token) ? await deps.signing.redeemRecipientView(sha256Hex(request.params.token), now) : undefined;
    if (!view) {
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store')
        .send(unknownLinkPage('The signing link is unknown. Ask the sender for a new one.'));
    }
    if (view.outcome !== 'redeemed') {
      if (now.getTime() < view.expiresAt.getTime() + DEAD_VIEW_REDIRECT_GRACE_MS) {
        return reply.code(303).header('cache-control', 'no-store').redirect(returnWithEvent(view.returnUrl, 'ttl_expired'));
      }
      return reply.code(410).type('text/html; charset=utf-8').header('cache-control', 'no-store')
        .send(unknownLinkPage('This signing link has expired. Go back to the application you came from to open the document again.', 'This link has expired'));
    }
    const session = newSecretToken();
    await deps.signing.createSession({ tokenHash: sha256Hex(session), envelopeId: view.envelopeId, recipientId: view.recipientId, returnUrl: view.returnUrl, createdAt: now, expiresAt: new Date(now.getTime() + deps.sessionTtlMs), ...(view.frame ? { frame: view.frame } : {}) });
    // A focused view is opened inside the integrator's frame: its cookie must come back there.
    reply.setCookie(SESSION_COOKIE, session, { path: '/signing', httpOnly: true, ...cookieSecurity(deps.ctx, request, view.frame), maxAge: Math.floor(deps.sessionTtlMs / 1000) });
    return reply.code(303).header('cache-control', 'no-store').redirect(`/signing/${SESSION_REF}`);
  });
}
