import { createPublicKey } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import type { EsignContext } from '../../context.ts';
import { LIFETIMES } from '../../domain/lifetimes.ts';
import { parseScopes, scopesCovered } from '../../domain/scopes.ts';
import { OAuthError } from '../../errors.ts';
import { formField } from '../../web/form.ts';
import { mintTokens, type TokenResponse } from '../token-issuer.ts';

/** The JWT bearer grant type (RFC 7523 §2.1). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * DocuSign's JWT grant as the SDK's requestJWTUserToken sends it (compat/esign-wire.md §0.5):
 * no client authentication; an RS256 assertion with iss = integration key, sub = user id,
 * aud = the auth host (no scheme), signed by a key registered for the app. The user must
 * have consented to `impersonation` (else DocuSign's `consent_required`). The token lives
 * 1 h and comes without a refresh token, as DocuSign's does. The error_description values
 * are DocuSign's (issuer_not_found, user_not_found, no_valid_keys_or_signatures).
 */
export async function jwtBearerGrant(ctx: EsignContext, body: unknown): Promise<TokenResponse> {
  const assertion = formField(body, 'assertion');
  if (!assertion) throw new OAuthError('INVALID_REQUEST', 'The assertion parameter is missing.');
  let claims: JWTPayload;
  try {
    claims = decodeJwt(assertion);
  } catch {
    throw new OAuthError('INVALID_GRANT', 'no_valid_keys_or_signatures');
  }
  const app = typeof claims.iss === 'string' && claims.iss.length <= 100 ? await ctx.store.apps.findApp(claims.iss) : undefined;
  if (!app) throw new OAuthError('INVALID_GRANT', 'issuer_not_found');

  let verified = false;
  for (const pem of await ctx.store.apps.liveRsaKeys(app.id)) {
    try {
      await jwtVerify(assertion, createPublicKey(pem), {
        algorithms: ['RS256'],
        issuer: app.id,
        audience: [ctx.authHost, `https://${ctx.authHost}`],
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: ctx.now(),
        clockTolerance: 60,
      });
      verified = true;
      break;
    } catch {
      // try the app's next key
    }
  }
  if (!verified) throw new OAuthError('INVALID_GRANT', 'no_valid_keys_or_signatures');

  const user = typeof claims.sub === 'string' && claims.sub.length <= 100 ? await ctx.store.accounts.findUserById(claims.sub) : undefined;
  if (!user) throw new OAuthError('INVALID_GRANT', 'user_not_found');
  const scopes = parseScopes(typeof claims.scope === 'string' ? claims.scope : undefined);
  if (!scopes) throw new OAuthError('INVALID_SCOPE', 'Supported scopes: signature, extended, impersonation, openid.');
  const granted = await ctx.store.oauth.consentedScopes(user.id, app.id);
  if (!granted || !granted.includes('impersonation') || !scopesCovered(scopes, granted)) {
    throw new OAuthError('CONSENT_REQUIRED', 'consent_required');
  }
  const { body: response, rows } = mintTokens(ctx, {
    appId: app.id,
    userId: user.id,
    grantId: randomUUID(),
    scopes,
    accessTtl: LIFETIMES.jwtAccessToken,
    refreshExpiresAt: undefined,
  });
  await ctx.store.oauth.insertTokens(rows);
  return response;
}
