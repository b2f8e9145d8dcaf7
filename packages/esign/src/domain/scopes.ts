/**
 * DocuSign's scopes (docusign-esign src/oauth/Scope.js; DocuSign's "Authentication scopes"
 * reference), plus the OpenID Connect ones, which only ever reach /oauth/userinfo.
 */
export const SUPPORTED_SCOPES: readonly string[] = ['signature', 'extended', 'impersonation', 'openid', 'email', 'profile'];

/** The scope the SDK's consent URLs and samples use when none is given. */
export const DEFAULT_SCOPE = 'signature';

/**
 * What a token must carry to call the eSignature REST API (and Connect, which is part of it):
 * DocuSign's "To make calls to the eSignature API, you must request the signature scope".
 * `impersonation` only lets an app ask for JWT tokens, `extended` only lengthens refresh tokens,
 * and `openid`/`email`/`profile` only answer who the user is.
 */
export const ESIGNATURE_SCOPE = 'signature';

/**
 * Splits a space-separated scope parameter (RFC 6749 §3.3) into a sorted, de-duplicated list;
 * `undefined` when any scope is unknown.
 */
export function parseScopes(raw: string | undefined): string[] | undefined {
  const list = (raw ?? DEFAULT_SCOPE).split(' ').filter((s) => s !== '');
  if (list.length === 0) return [DEFAULT_SCOPE];
  if (list.some((s) => !SUPPORTED_SCOPES.includes(s))) return undefined;
  return [...new Set(list)].sort();
}

/** True when every scope in `wanted` is in `granted`. */
export function scopesCovered(wanted: readonly string[], granted: readonly string[]): boolean {
  return wanted.every((s) => granted.includes(s));
}

/** True when a token with these scopes may call the eSignature REST API. */
export function allowsESignature(scopes: readonly string[]): boolean {
  return scopes.includes(ESIGNATURE_SCOPE);
}

/** The error description naming the supported scopes, for invalid_scope answers. */
export const SUPPORTED_SCOPES_TEXT = `Supported scopes: ${SUPPORTED_SCOPES.join(', ')}.`;
