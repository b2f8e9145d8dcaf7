import { EsignError } from '../errors.ts';

/**
 * An integrator's returnUrl (recipient, sender, edit, correct and console views): absolute
 * http(s) only, so a view can never send the browser to `javascript:` or a relative path.
 * Returns the URL normalised.
 */
export function parseReturnUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EsignError('INVALID_REQUEST_PARAMETER', "'returnUrl' must be an absolute http(s) URL.");
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new EsignError('INVALID_REQUEST_PARAMETER', "'returnUrl' must be an absolute http(s) URL.");
  return url.toString();
}

/** The returnUrl with DocuSign's `event` parameter (signing_complete, decline, ttl_expired, Send, Save, …). */
export function returnWithEvent(returnUrl: string, event: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set('event', event);
  return url.toString();
}
