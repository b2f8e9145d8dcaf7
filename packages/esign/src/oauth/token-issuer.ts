import type { EsignContext } from '../context.ts';
import { expiryAfter } from '../domain/lifetimes.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { TokenRow } from '../store/schema.ts';

/** The RFC 6749 §5.1 token response, in the snake_case the SDK maps (docusign-esign src/oauth/OAuthToken.js). */
export type TokenResponse = {
  access_token: string;
  token_type: 'Bearer';
  refresh_token?: string;
  expires_in: number;
  scope: string;
};

/** What to issue: an access token and, optionally, a refresh token, under one grant. */
export type TokenGrant = {
  appId: string;
  userId: string;
  grantId: string;
  scopes: readonly string[];
  accessTtl: number;
  /** Absolute expiry of the refresh token (ISO), or undefined for none. */
  refreshExpiresAt: string | undefined;
};

/** Mints random tokens; the rows hold only their hashes. The caller stores the rows. */
export function mintTokens(ctx: EsignContext, grant: TokenGrant): { body: TokenResponse; rows: TokenRow[] } {
  const now = ctx.now();
  const scopes = grant.scopes.join(' ');
  const common = { app_id: grant.appId, user_id: grant.userId, grant_id: grant.grantId, scopes, revoked_at: null, created_at: now.toISOString() };
  const access = newSecretToken();
  const rows: TokenRow[] = [{ ...common, token_hash: sha256Hex(access), kind: 'access', expires_at: expiryAfter(now, grant.accessTtl) }];
  const body: TokenResponse = { access_token: access, token_type: 'Bearer', expires_in: grant.accessTtl, scope: scopes };
  if (grant.refreshExpiresAt !== undefined) {
    const refresh = newSecretToken();
    rows.push({ ...common, token_hash: sha256Hex(refresh), kind: 'refresh', expires_at: grant.refreshExpiresAt });
    body.refresh_token = refresh;
  }
  return { body, rows };
}
