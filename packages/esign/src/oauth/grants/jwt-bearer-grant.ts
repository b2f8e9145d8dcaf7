import { createPublicKey } from 'node:crypto';
import { randomUUID } from 'node:crypto';
import { decodeJwt, jwtVerify, type JWTPayload } from 'jose';
import type { EsignContext } from '../../context.ts';
import { LIFETIMES } from '../../domain/lifetimes.ts';
import { parseScopes, scopesCovered, SUPPORTED_SCOPES_TEXT } from '../../domain/scopes.ts';
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

/** DocuSign's limit on an assertion's life: exp at most one hour after iat (its JWT grant guide). */
export const MAX_ASSERTION_LIFETIME_SECONDS = 3600;
/** How far an assertion's iat may lie ahead of this server's clock (clocks drift). */
const CLOCK_SKEW_SECONDS = 60;

/**
 * What the signature check does not bound (RFC 7523 §3: the server may refuse an `iat` too far
 * in the future or an `exp` too far ahead, and may keep `jti`s to refuse replays): an
 * assertion minted for later use, one that lives longer than DocuSign allows, and a second
 * use of an assertion that names itself.
 */
async function assertAssertionBounds(ctx: EsignContext, appId: string, claims: JWTPayload): Promise<void> {
  const nowSeconds = Math.floor(ctx.now().getTime() / 1000);
  const { iat, exp, jti } = claims;
  if (typeof iat !== 'number' || typeof exp !== 'number') throw new OAuthError('INVALID_GRANT', 'The assertion needs numeric iat and exp claims.');
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) throw new OAuthError('INVALID_GRANT', 'The assertion was issued in the future (iat).');
  if (exp - iat > MAX_ASSERTION_LIFETIME_SECONDS) {
    throw new OAuthError('INVALID_GRANT', `The assertion lives longer than ${MAX_ASSERTION_LIFETIME_SECONDS} seconds (exp - iat).`);
  }
  if (jti === undefined) return;
  if (typeof jti !== 'string' || jti === '' || jti.length > 200) throw new OAuthError('INVALID_GRANT', 'The jti claim must be a string of 1-200 characters.');
  if (!(await ctx.store.oauth.useAssertionId(appId, jti, new Date((exp + CLOCK_SKEW_SECONDS) * 1000), ctx.now()))) {
    throw new OAuthError('INVALID_GRANT', 'The assertion was used before (jti).');
  }
}

/**
 * DocuSign's JWT grant as the SDK's requestJWTUserToken sends it (docusign-esign src/ApiClient.js):
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
  await assertAssertionBounds(ctx, app.id, claims);
  if (claims.sub === undefined || claims.sub === '' || claims.sub === app.id) throw new OAuthError('INVALID_GRANT', APPLICATION_TOKEN_REFUSED);

  const user = typeof claims.sub === 'string' && claims.sub.length <= 100 ? await ctx.store.accounts.findUserById(claims.sub) : undefined;
  if (!user) throw new OAuthError('INVALID_GRANT', 'user_not_found');
  const scopes = parseScopes(typeof claims.scope === 'string' ? claims.scope : undefined);
  if (!scopes) throw new OAuthError('INVALID_SCOPE', SUPPORTED_SCOPES_TEXT);
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
