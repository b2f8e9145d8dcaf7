// Brings @fastify/cookie's request.cookies / reply.setCookie types into scope.
import type {} from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { expiryAfter, LIFETIMES } from '../domain/lifetimes.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { UserRow } from '../store/schema.ts';

/** The login session cookie: HttpOnly, SameSite=Lax, Secure when the public URL is https. */
export const SESSION_COOKIE = 'signet_session';

/** The signed-in user, or undefined. Sessions live in the store so every instance sees them. */
export async function sessionUser(ctx: EsignContext, request: FastifyRequest): Promise<UserRow | undefined> {
  const id = request.cookies[SESSION_COOKIE];
  if (id === undefined || id.length > 100) return undefined;
  const userId = await ctx.store.sessions.userOf(sha256Hex(id), ctx.now());
  return userId === undefined ? undefined : ctx.store.accounts.findUserById(userId);
}

/** Starts a fresh session (a new id at every login: no session fixation). */
export async function startSession(ctx: EsignContext, reply: FastifyReply, userId: string): Promise<void> {
  const id = newSecretToken();
  const now = ctx.now();
  await ctx.store.sessions.create(sha256Hex(id), userId, now, expiryAfter(now, LIFETIMES.session));
  reply.setCookie(SESSION_COOKIE, id, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: ctx.secureCookies,
    maxAge: LIFETIMES.session,
  });
}

/** Ends the session server-side and clears the cookie. */
export async function endSession(ctx: EsignContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const id = request.cookies[SESSION_COOKIE];
  if (id !== undefined) await ctx.store.sessions.delete(sha256Hex(id));
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: ctx.secureCookies });
}
