// Brings @fastify/cookie's request.cookies types into scope.
import type {} from '@fastify/cookie';
import type { FastifyRequest } from 'fastify';
import type { SigningFrame } from '../domain/signing/signing-frame.ts';
import { sha256Hex } from '../security/secret-token.ts';
import { frameFromColumns } from '../store/signing-tables.ts';
import { markFramed } from '../web/framing.ts';
import type { SigningRepository } from '../store/signing-repository.ts';

/** Who a signing URL speaks for. */
export type SignerRef = {
  readonly envelopeId: string;
  readonly accountId: string;
  readonly recipientId: string;
  /** Embedded signing: where to send the browser back (with ?event=…). */
  readonly returnUrl?: string;
  /** The URL prefix of this signer's pages. */
  readonly base: string;
  /** A focused view's session: who may frame its pages and receive their events. */
  readonly frame?: SigningFrame;
};

/** The cookie an embedded signing session lives in (set when a recipient view is redeemed). */
export const SESSION_COOKIE = 'signet_signing';
/** The path segment that means "the session in the cookie" instead of a link token. */
export const SESSION_REF = 'session';

export type SignerLookup = {
  /** The e-mail link tokens (store/envelopes-repository.ts findSigningToken). */
  findSigningToken(tokenHash: string): Promise<{ envelopeId: string; accountId: string; recipientId: string; purpose: string } | undefined>;
  signing: SigningRepository;
  now: () => Date;
};

const TOKEN = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * Resolves `/signing/{ref}`: a personal link token from a mail, or `session` with the cookie of
 * a redeemed recipient view. Undefined for anything unknown or expired; tokens are looked up by
 * their SHA-256 only. A focused view's session marks the request as framed (web/framing.ts).
 */
export async function resolveSigner(lookup: SignerLookup, request: FastifyRequest, ref: string): Promise<SignerRef | undefined> {
  if (ref === SESSION_REF) {
    const cookie = request.cookies[SESSION_COOKIE];
    if (cookie === undefined || !TOKEN.test(cookie)) return undefined;
    const session = await lookup.signing.findSession(sha256Hex(cookie));
    if (!session || new Date(session.expires_at) <= lookup.now()) return undefined;
    const frame = frameFromColumns(session);
    // Only a focused view's session may be framed; a mailed link never is (no ref.frame).
    if (frame) markFramed(request, frame);
    return { envelopeId: session.envelope_id, accountId: session.account_id, recipientId: session.recipient_id, returnUrl: session.return_url, base: `/signing/${SESSION_REF}`, ...(frame ? { frame } : {}) };
  }
  if (!TOKEN.test(ref)) return undefined;
  const token = await lookup.findSigningToken(sha256Hex(ref));
  if (!token || token.purpose !== 'signing') return undefined;
  return { envelopeId: token.envelopeId, accountId: token.accountId, recipientId: token.recipientId, base: `/signing/${encodeURIComponent(ref)}` };
}
