import { timingSafeEqual, createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { GatewayError } from '../errors.ts';

/** What the guard reads of a request: its method, headers and the socket it arrived on. */
export type AdminRequestHead = {
  readonly method: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
};

// Bodies a browser can only send after a CORS preflight (which this API never answers):
// JSON and YAML. Form, multipart and text/plain are "simple" and go cross-site unasked.
const PREFLIGHTED_TYPES = new Set(['application/json', 'application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml']);

const header = (h: AdminRequestHead, name: string): string | undefined => {
  const v = h.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

const isLoopback = (address: string): boolean => address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');

/** The Host values that name this listener: its own address, and localhost names on loopback. */
export function adminHostNames(localAddress: string, localPort: number): Set<string> {
  const address = localAddress.startsWith('::ffff:') ? localAddress.slice(7) : localAddress;
  const names = [isIP(address) === 6 ? `[${address}]` : address];
  if (isLoopback(address)) names.push('localhost', '127.0.0.1', '[::1]');
  return new Set(names.flatMap((n) => (localPort === 80 ? [n, `${n}:80`] : [`${n}:${localPort}`])));
}

/** SHA-256 both sides, so the comparison is constant-time whatever the lengths. */
function tokenMatches(given: string, expected: Buffer): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
}

/**
 * Refuses admin requests a web page could make on the operator's behalf, before anything is
 * routed or read. Every request: an Origin that is not the listener's own (403), so a page
 * cannot drive the API even with simple requests. With a token (Kong Enterprise RBAC's
 * `Kong-Admin-Token` header): the token, compared in constant time (401). Without one (loopback
 * only, checked at start): a Host that is not this listener's address (403), which defeats
 * DNS rebinding, and request bodies other than JSON or YAML (415), which a page can send only
 * after a preflight. A request carrying the token is not a simple one either, so with a token
 * the form and multipart bodies of `curl -F config=@kong.yml` are accepted.
 */
export function guardAdminRequest(head: AdminRequestHead, tokenHash: Buffer | undefined): void {
  const host = (header(head, 'host') ?? '').toLowerCase();
  const origin = header(head, 'origin');
  const hosts = adminHostNames(head.localAddress ?? '', head.localPort ?? 0);
  if (origin !== undefined && !(hosts.has(host) && origin.toLowerCase() === `http://${host}`)) {
    throw new GatewayError('ADMIN_FORBIDDEN', { message: `Forbidden: requests from origin ${origin} are not accepted` });
  }
  if (tokenHash !== undefined) {
    const token = header(head, 'kong-admin-token');
    if (token === undefined || !tokenMatches(token, tokenHash)) throw new GatewayError('ADMIN_UNAUTHORIZED');
    return;
  }
  if (!hosts.has(host)) throw new GatewayError('ADMIN_FORBIDDEN', { message: `Forbidden: ${host || 'a missing Host'} is not an address of this admin listener` });
  const length = header(head, 'content-length');
  const hasBody = (length !== undefined && length !== '0') || header(head, 'transfer-encoding') !== undefined;
  const type = (header(head, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (hasBody && !PREFLIGHTED_TYPES.has(type)) {
    throw new GatewayError('UNSUPPORTED_MEDIA_TYPE', {
      message: `Unsupported Media Type: ${type || 'no content type'}; send JSON or YAML (application/json, application/yaml), e.g. curl -H 'Content-Type: application/yaml' --data-binary @kong.yml, or set an admin token for form bodies`,
    });
  }
}

/** The configured token, hashed once at start for {@link guardAdminRequest}. */
export const hashAdminToken = (token: string | undefined): Buffer | undefined => (token === undefined ? undefined : createHash('sha256').update(token).digest());
