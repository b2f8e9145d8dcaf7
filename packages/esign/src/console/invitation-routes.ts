import type { FastifyInstance, FastifyReply } from 'fastify';
import type { EsignContext } from '../context.ts';
import { assertPasswordAcceptable } from '../domain/password-policy.ts';
import { EsignError } from '../errors.ts';
import { hashPassword, verifyPassword } from '../security/password-hash.ts';
import { sha256Hex } from '../security/secret-token.ts';
import { InvitationsRepository } from '../store/invitations-repository.ts';
import { assertCsrf, csrfTokenFor } from '../web/csrf.ts';
import { formField } from '../web/form.ts';
import { startSession } from '../web/session.ts';
import { invitationInvalidPage, invitationPage } from './member-pages.ts';

const HTML = 'text/html; charset=utf-8';
type TokenParams = { Params: { token: string } };

/**
 * The invitation's single-use link (UsersApi.create, docs/esign-users.md): a new user sets their
 * password there; the membership becomes active and the link is spent. Only the token's hash is
 * stored; the page is not cached and sends no referrer.
 */
export function registerInvitationRoutes(app: FastifyInstance, ctx: EsignContext): void {
  const invitations = new InvitationsRepository(ctx.store.db);
  const open = (token: string) => (/^[A-Za-z0-9_-]{43}$/.test(token) ? invitations.find(sha256Hex(token), ctx.now()) : Promise.resolve(undefined));
  const invalid = (reply: FastifyReply) => reply.code(404).type(HTML).header('cache-control', 'no-store').send(invitationInvalidPage());
  const send = (reply: FastifyReply, page: string, status = 200) => reply.code(status).type(HTML).header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').send(page);

  app.get<TokenParams>('/invitations/:token', async (request, reply) => {
    const found = await open(request.params.token);
    if (!found) return invalid(reply);
    return send(reply, invitationPage({ csrf: csrfTokenFor(ctx, request, reply), action: request.url, email: found.email, accountName: found.accountName, newUser: !found.hasPassword, needsCode: found.activationCodeHash !== undefined }));
  });

  app.post<TokenParams>('/invitations/:token', async (request, reply) => {
    assertCsrf(request);
    const found = await open(request.params.token);
    if (!found) return invalid(reply);
    const page = (error: string) => invitationPage({ csrf: csrfTokenFor(ctx, request, reply), action: request.url, email: found.email, accountName: found.accountName, newUser: !found.hasPassword, needsCode: found.activationCodeHash !== undefined, error });
    // The activation code the inviter set (UsersApi.create activationAccessCode): checked in
    // constant time against its scrypt hash; a wrong one spends a try and leaves the link unused.
    if (found.activationCodeHash !== undefined) {
      const code = (formField(request.body, 'activation_code') ?? '').trim();
      if (!(await verifyPassword(code, found.activationCodeHash))) {
        if (await invitations.codeFailed(sha256Hex(request.params.token), ctx.now())) return invalid(reply);
        const err = new EsignError('ACTIVATION_CODE_INVALID');
        return send(reply, page(err.message), err.status);
      }
    }
    let passwordHash: string | undefined;
    if (!found.hasPassword) {
      const password = formField(request.body, 'password') ?? '';
      try {
        assertPasswordAcceptable(password);
      } catch (err) {
        if (!(err instanceof EsignError)) throw err;
        return send(reply, page(err.message), err.status);
      }
      passwordHash = await hashPassword(password, ctx.passwordHashCost);
    }
    const accepted = await invitations.accept(sha256Hex(request.params.token), passwordHash, ctx.now());
    if (!accepted) return invalid(reply);
    // A new user is signed in by the link that set their password; an existing one logs in as usual.
    if (passwordHash === undefined) return reply.redirect('/login', 303);
    await startSession(ctx, reply, accepted.userId);
    return reply.redirect('/console', 303);
  });
}
