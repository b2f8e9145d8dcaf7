/**
 * Where to go after login: only a same-site absolute path, never `//host` or `/\host` (which
 * browsers read as another origin), so the login form is not an open redirect.
 */
export function safeReturnPath(raw: string | undefined, fallback = '/console'): string {
  if (raw === undefined || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return fallback;
  if ([...raw].some((c) => c.charCodeAt(0) < 0x20) || raw.length > 4096) return fallback;
  return raw;
}
