import { EsignError } from '../errors.ts';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Validates a redirect URL for registration and returns it unchanged: matching at /oauth/auth
 * is by exact string (RFC 6749 §3.1.2.3 with no normalisation, as DocuSign does), so what is
 * stored is exactly what the app sends. Rules: absolute, no fragment (RFC 6749 §3.1.2), and
 * https except on a loopback host (RFC 8252 §7.3); other schemes are native-app callbacks.
 */
export function validateRedirectUri(raw: string): string {
  const uri = raw.trim();
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new EsignError('INVALID_REDIRECT_URI', `"${raw}" is not an absolute URL.`);
  }
  if (uri.includes('#')) throw new EsignError('INVALID_REDIRECT_URI', 'It must not contain a fragment.');
  if (url.protocol === 'http:' && !LOOPBACK.has(url.hostname)) {
    throw new EsignError('INVALID_REDIRECT_URI', 'Plain http is allowed only for localhost and 127.0.0.1.');
  }
  if (['javascript:', 'data:', 'file:', 'vbscript:'].includes(url.protocol)) {
    throw new EsignError('INVALID_REDIRECT_URI', `The scheme ${url.protocol} is not allowed.`);
  }
  if (uri.length > 2048) throw new EsignError('INVALID_REDIRECT_URI', 'It is longer than 2048 characters.');
  return uri;
}
