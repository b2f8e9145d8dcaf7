import type { FastifyRequest } from 'fastify';
import type { EsignContext } from '../context.ts';
import { OAuthError } from '../errors.ts';
import { constantTimeEqual, sha256Hex } from '../security/secret-token.ts';
import type { AppRow } from '../store/schema.ts';
import { formField } from '../web/form.ts';

/** Client credentials as presented, and how (RFC 6749 §2.3.1). */
export type ClientCredentials = { clientId: string; secret: string; method: 'client_secret_basic' | 'client_secret_post' };

/**
 * Reads the client credentials from `Authorization: Basic` (what the SDK sends) or from the
 * form (client_secret_post). Using both at once is an error (RFC 6749 §2.3). Basic's user and
 * password are form-urlencoded before base64 (RFC 6749 §2.3.1), hence the decoding.
 */
export function readClientCredentials(request: FastifyRequest): ClientCredentials | undefined {
  const header = request.headers.authorization;
  const postId = formField(request.body, 'client_id');
  const postSecret = formField(request.body, 'client_secret');
  if (header !== undefined && /^basic /i.test(header)) {
    if (postSecret !== undefined) throw new OAuthError('INVALID_REQUEST', 'Use one client authentication method, not two.');
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError('INVALID_CLIENT', 'The Basic credentials are malformed.');
    try {
      const clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      const secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
      if (postId !== undefined && postId !== clientId) throw new OAuthError('INVALID_REQUEST', 'client_id does not match the Basic credentials.');
      return { clientId, secret, method: 'client_secret_basic' };
    } catch (err) {
      if (err instanceof OAuthError) throw err;
      throw new OAuthError('INVALID_CLIENT', 'The Basic credentials are malformed.');
    }
  }
  if (postId !== undefined && postSecret !== undefined) return { clientId: postId, secret: postSecret, method: 'client_secret_post' };
  return undefined;
}

/**
 * The app whose secret matches. Every live secret hash is compared in constant time and all
 * are compared (no early exit), so timing tells nothing about which secret nearly matched.
 */
export async function authenticateClient(ctx: EsignContext, credentials: ClientCredentials | undefined): Promise<AppRow> {
  if (!credentials) throw new OAuthError('INVALID_CLIENT', 'Client authentication is required.');
  const app = credentials.clientId.length <= 100 ? await ctx.store.apps.findApp(credentials.clientId) : undefined;
  const presented = sha256Hex(credentials.secret);
  const hashes = app ? await ctx.store.apps.liveSecretHashes(app.id) : [];
  let matched = false;
  for (const hash of hashes) matched = constantTimeEqual(presented, hash) || matched;
  if (!app || !matched) throw new OAuthError('INVALID_CLIENT', 'The integration key or secret key is invalid.');
  return app;
}
