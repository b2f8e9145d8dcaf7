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
 * The answer to a request for an application-access token. DocuSign issues one for a JWT
 * without `sub` (the SDK's requestJWTApplicationToken) or with the integration key as `sub`,
 * but only its Admin API accepts it (DocuSign's "Application-access tokens" page: the
 * eSignature API does not); the eSignature API then answers 401 AUTHORIZATION_INVALID_TOKEN
 * ("Authentication for System Application failed"). This server has no Admin API, so such a
 * token could never be used: the grant is refused where the mistake is made, saying what to
 * send instead. RFC 7523 §3 makes `sub` mandatory and §3.1 names the error for an invalid JWT:
 * invalid_grant.
 */
export const APPLICATION_TOKEN_REFUSED =
  'Application-access tokens (a JWT without sub) are only for the DocuSign Admin API, which this server does not provide. ' +
  "The eSignature API needs a user token: set sub to the user's id (requestJWTUserToken), after that user has consented to impersonation.";

/**
 * DocuSign's JWT grant as the SDK's requestJWTUserToken sends it (compat/esign-wire.md §0.5):
 * no client authentication; an RS256 assertion with iss = integration key, sub = user id,
 * aud = the auth host (no scheme), signed by a key registered for the app. The user must
 * have consented to `impersonation` (else DocuSign's `consent_required`). The token lives
 * 1 h and comes without a refresh token, as DocuSign's does. The error_description values
 * are DocuSign's (issuer_not_found, user_not_found, no_valid_keys_or_signatures), except for
 * APPLICATION_TOKEN_REFUSED, where DocuSign issues a token the eSignature API refuses.
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
        // `sub` is checked below, once the signature has shown the request is the app's own.
        requiredClaims: ['exp', 'iat'],
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
  if (claims.sub === undefined || claims.sub === '' || claims.sub === app.id) throw new OAuthError('INVALID_GRANT', APPLICATION_TOKEN_REFUSED);

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
