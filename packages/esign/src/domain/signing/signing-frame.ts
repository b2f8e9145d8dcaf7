import { EsignError } from '../../errors.ts';

/**
 * A focused view (docs/esign-signing.md, "Focused view"): the origins that may frame one
 * embedded signing session (RecipientViewRequest.frameAncestors, docusign-esign
 * src/model/RecipientViewRequest.js) and those its page posts events to (messageOrigins).
 * A session without one can be framed by nobody.
 */
export type SigningFrame = { readonly ancestors: readonly string[]; readonly messageOrigins: readonly string[] };

/** More origins than an integrator's page, DocuSign's script host and a staging copy need. */
export const MAX_FRAME_ORIGINS = 10;

// A DNS name or an IPv4 address; IPv6 in brackets. Anything else (`;`, `'`, `*`, spaces) could
// add a directive to the CSP header the origin is written into, so it is refused, not escaped.
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])$/;
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

function invalid(field: string, value: string, why: string): EsignError {
  return new EsignError('INVALID_REQUEST_PARAMETER', `'${field}' holds '${value.slice(0, 200)}', which ${why}.`);
}

/**
 * One origin of `field`, as the browser writes it (scheme://host[:port]). https only, except on
 * loopback where a developer's page runs over http; no wildcard, path, query or credentials:
 * the CSP names exact origins, never `*`.
 */
export function frameOrigin(field: string, value: string): string {
  if (value.includes('*')) throw invalid(field, value, 'is a wildcard; name each origin exactly');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, value, 'is not an origin (scheme://host[:port])');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || url.pathname !== '/' || /[?#]/.test(value)) {
    throw invalid(field, value, 'is not an origin: it has more than scheme://host[:port]');
  }
  if (!HOST.test(url.hostname)) throw invalid(field, value, 'is not an origin (its host is not a DNS name or an IP address)');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw invalid(field, value, 'is not https (http is allowed on localhost only)');
  }
  return url.origin;
}

function originList(field: string, raw: unknown): string[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) throw new EsignError('INVALID_REQUEST_PARAMETER', `'${field}' must be a list of origins.`);
  if (raw.length > MAX_FRAME_ORIGINS) throw new EsignError('INVALID_REQUEST_PARAMETER', `'${field}' holds ${raw.length} origins; at most ${MAX_FRAME_ORIGINS} are allowed.`);
  return [...new Set((raw as string[]).map((v) => frameOrigin(field, v.trim())))];
}

/**
 * The frame a recipient view asks for, or undefined for an ordinary (unframeable) session.
 * Events go to the framing page only, so each message origin must also be a frame ancestor.
 */
export function parseSigningFrame(frameAncestors: unknown, messageOrigins: unknown): SigningFrame | undefined {
  const ancestors = originList('frameAncestors', frameAncestors);
  const messages = originList('messageOrigins', messageOrigins);
  if (ancestors === undefined || ancestors.length === 0) {
    if (messages !== undefined && messages.length > 0) throw new EsignError('INVALID_REQUEST_PARAMETER', "'messageOrigins' needs 'frameAncestors': events are posted to the page that frames the signing.");
    return undefined;
  }
  const outside = (messages ?? []).find((m) => !ancestors.includes(m));
  if (outside !== undefined) throw new EsignError('INVALID_REQUEST_PARAMETER', `'messageOrigins' holds '${outside}', which is not in 'frameAncestors': only a page that frames the signing receives its events.`);
  return { ancestors, messageOrigins: messages ?? [] };
}
