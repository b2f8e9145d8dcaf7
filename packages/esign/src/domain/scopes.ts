/** DocuSign's scopes (compat/esign-wire.md §1: OAuth.Scope), plus `openid`, which is accepted. */
export const SUPPORTED_SCOPES: readonly string[] = ['signature', 'extended', 'impersonation', 'openid'];

/** The scope the SDK's consent URLs and samples use when none is given. */
export const DEFAULT_SCOPE = 'signature';

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
