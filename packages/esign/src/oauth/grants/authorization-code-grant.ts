import type { EsignContext } from '../../context.ts';
import { expiryAfter, LIFETIMES } from '../../domain/lifetimes.ts';
import { pkceVerifies } from '../../domain/pkce.ts';
import { OAuthError } from '../../errors.ts';
import { sha256Hex } from '../../security/secret-token.ts';
import type { AppRow } from '../../store/schema.ts';
import { formField } from '../../web/form.ts';
import { mintTokens, type TokenResponse } from '../token-issuer.ts';

/**
 * grant_type=authorization_code (RFC 6749 §4.1.3). The SDK sends only `code` (no
 * redirect_uri, no PKCE: generateAccessToken in docusign-esign src/ApiClient.js), so redirect_uri is checked when sent and
 * may be omitted, whatever the number of registered URIs. A code is single use: a replay
 * revokes every token it issued (RFC 6749 §4.1.2, §10.5).
 */
export async function authorizationCodeGrant(ctx: EsignContext, app: AppRow, body: unknown): Promise<TokenResponse> {
  const code = formField(body, 'code');
  if (!code) throw new OAuthError('INVALID_REQUEST', 'The code parameter is missing.');
  const now = ctx.now();
  const hash = sha256Hex(code);
  const row = await ctx.store.oauth.findCode(hash);
  if (!row || row.app_id !== app.id) throw new OAuthError('INVALID_GRANT', 'The authorization code is invalid.');
  if (row.consumed_at !== null || !(await ctx.store.oauth.consumeCode(hash, now))) {
    await ctx.store.oauth.revokeGrant(row.grant_id, now);
    throw new OAuthError('INVALID_GRANT', 'The authorization code was already used; the tokens it issued are revoked.');
  }
  if (row.expires_at <= now.toISOString()) throw new OAuthError('INVALID_GRANT', 'The authorization code has expired.');
  const redirectUri = formField(body, 'redirect_uri');
  if (redirectUri !== undefined && redirectUri !== row.redirect_uri) {
    throw new OAuthError('INVALID_GRANT', 'The redirect_uri does not match the authorization request.');
  }
  const verifier = formField(body, 'code_verifier');
  if (row.code_challenge !== null) {
    if (verifier === undefined || !pkceVerifies(verifier, row.code_challenge)) throw new OAuthError('INVALID_GRANT', 'The PKCE code_verifier does not match.');
  } else if (verifier !== undefined) {
    throw new OAuthError('INVALID_GRANT', 'A code_verifier was sent for a code issued without PKCE.');
  }
  const { body: response, rows } = mintTokens(ctx, {
    appId: app.id,
    userId: row.user_id,
    grantId: row.grant_id,
    scopes: row.scopes.split(' '),
    accessTtl: LIFETIMES.accessToken,
    refreshExpiresAt: expiryAfter(now, LIFETIMES.refreshToken),
  });
  await ctx.store.oauth.insertTokens(rows);
  return response;
}
