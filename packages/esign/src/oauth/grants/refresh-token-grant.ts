import type { EsignContext } from '../../context.ts';
import { expiryAfter, LIFETIMES } from '../../domain/lifetimes.ts';
import { parseScopes, scopesCovered } from '../../domain/scopes.ts';
import { OAuthError } from '../../errors.ts';
import { sha256Hex } from '../../security/secret-token.ts';
import type { AppRow } from '../../store/schema.ts';
import { formField } from '../../web/form.ts';
import { mintTokens, type TokenResponse } from '../token-issuer.ts';

/**
 * grant_type=refresh_token (RFC 6749 §6). The refresh token is rotated; reuse of a rotated
 * one revokes the whole grant (RFC 6819 §5.2.2.3). DocuSign: with the `extended` scope the
 * new refresh token gets a full new lifetime, otherwise it keeps the old expiry
 * (DocuSign blog "Authorization Code Grant refresh tokens", section "The extended scope").
 */
export async function refreshTokenGrant(ctx: EsignContext, app: AppRow, body: unknown): Promise<TokenResponse> {
  const presented = formField(body, 'refresh_token');
  if (!presented) throw new OAuthError('INVALID_REQUEST', 'The refresh_token parameter is missing.');
  const now = ctx.now();
  const hash = sha256Hex(presented);
  const row = await ctx.store.oauth.findToken(hash);
  if (!row || row.kind !== 'refresh' || row.app_id !== app.id) throw new OAuthError('INVALID_GRANT', 'The refresh token is invalid.');
  if (row.revoked_at !== null) {
    await ctx.store.oauth.revokeGrant(row.grant_id, now);
    throw new OAuthError('INVALID_GRANT', 'The refresh token was revoked or already used.');
  }
  if (row.expires_at <= now.toISOString()) throw new OAuthError('INVALID_GRANT', 'The refresh token has expired.');
  const granted = row.scopes.split(' ');
  const asked = formField(body, 'scope');
  const scopes = asked === undefined ? granted : parseScopes(asked);
  // RFC 6749 §6: a refresh may narrow the scope, never widen it.
  if (!scopes || !scopesCovered(scopes, granted)) throw new OAuthError('INVALID_SCOPE', 'The scope exceeds what was granted.');
  const { body: response, rows } = mintTokens(ctx, {
    appId: app.id,
    userId: row.user_id,
    grantId: row.grant_id,
    scopes,
    accessTtl: LIFETIMES.accessToken,
    refreshExpiresAt: granted.includes('extended') ? expiryAfter(now, LIFETIMES.refreshToken) : row.expires_at,
  });
  if (!(await ctx.store.oauth.rotateRefresh(hash, rows, now))) throw new OAuthError('INVALID_GRANT', 'The refresh token was revoked or already used.');
  return response;
}
