/**
 * Headers for every response. Pages get a strict CSP: no scripts, same-origin styles,
 * `frame-ancestors 'none'` against clickjacking of the consent page. No `form-action`:
 * Chromium applies it to the redirect that follows the consent form, and that redirect goes
 * to the app's own (registered) URL. HSTS only when the public URL is https (RFC 6797 §7.2:
 * not over plain http).
 */
export function securityHeaders(publicIsHttps: boolean): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    // Codes and states travel in URLs; never leak them to other origins.
    'referrer-policy': 'no-referrer',
    ...(publicIsHttps ? { 'strict-transport-security': 'max-age=31536000' } : {}),
  };
}
