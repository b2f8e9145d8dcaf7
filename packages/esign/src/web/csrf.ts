// Brings @fastify/cookie's request.cookies / reply.setCookie types into scope.
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { EsignError } from '../errors.ts';
import { constantTimeEqual, newSecretToken } from '../security/secret-token.ts';
import { formField } from './form.ts';
import { cookieSecurity } from './framing.ts';

/** The double-submit cookie (OWASP CSRF cheat sheet); HttpOnly, so a page script cannot read it. */
export const CSRF_COOKIE = 'signet_csrf';
/** The hidden form field that must repeat the cookie. */
export const CSRF_FIELD = '_csrf';

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The token to embed in a form, setting the cookie when the browser has none yet. */
export function csrfTokenFor(ctx: EsignContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing !== undefined && TOKEN.test(existing)) return existing;
  const token = newSecretToken();
  reply.setCookie(CSRF_COOKIE, token, { path: '/', httpOnly: true, ...cookieSecurity(ctx, request) });
  return token;
}

/**
 * Throws CSRF_TOKEN_INVALID unless the form's token equals the cookie. With SameSite=Lax
 * cookies a cross-site POST carries no cookie at all; this check is the second line.
 */
export function assertCsrf(request: FastifyRequest): void {
  const cookie = request.cookies[CSRF_COOKIE];
  const field = formField(request.body, CSRF_FIELD);
  if (cookie === undefined || field === undefined || !TOKEN.test(cookie) || !constantTimeEqual(cookie, field)) {
    throw new EsignError('CSRF_TOKEN_INVALID');
  }
}
