// Brings @fastify/cookie's CookieSerializeOptions into scope.
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';

// The frame of the focused-view session a request was resolved to; set by the signing routes,
// read by the signing scope's onSend hook (the CSP) and by whoever sets a cookie on the answer.
const framed = new WeakMap<FastifyRequest, SigningFrame>();

/** Marks a request as belonging to a framed (focused view) session. */
export function markFramed(request: FastifyRequest, frame: SigningFrame): void {
  framed.set(request, frame);
}

/** The frame of the request's session, if it is one a focused view opened. */
export function frameOf(request: FastifyRequest): SigningFrame | undefined {
  return framed.get(request);
}

/**
 * The SameSite and Secure attributes of a cookie set in answer to `request`. A page framed by
 * another site only gets its cookies back as SameSite=None, which needs Secure, and browsers
 * that block third-party cookies still keep a Partitioned one (CHIPS): it lives in a jar keyed
 * by the framing site, so it is useless to any other site. Browsers accept Secure from
 * http://localhost too, so this works on a developer's machine. Everything else stays Lax.
 */
export function cookieSecurity(ctx: EsignContext, request: FastifyRequest, frame = frameOf(request)): Pick<CookieSerializeOptions, 'sameSite' | 'secure' | 'partitioned'> {
  return frame ? { sameSite: 'none', secure: true, partitioned: true } : { sameSite: 'lax', secure: ctx.secureCookies };
}
