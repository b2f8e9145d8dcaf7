// Refuses admin requests a web page could make on the operator's behalf, before anything is
// routed or read. Every request: an Origin that is not the listener's own is 403, so a page
// cannot drive the API even with simple requests. With a token (Kong Enterprise RBAC's
// `Kong-Admin-Token` header): the token, compared in constant time (401); a page cannot add
// that header without a preflight, nor learn the token by DNS rebinding, so any Host and
// Kong's form bodies are accepted then. Without one (loopback only, checked at start): a Host
// that is not this listener's address is 403, which defeats DNS rebinding, and a write body
// other than JSON or YAML is 415 (write-content-type.ts).
import type { IncomingHttpHeaders } from 'node:http';
import { GatewayError } from '../errors.ts';
import { ADMIN_TOKEN_HEADER, adminTokenMatches } from './admin-token.ts';
import { isListenerHost, isListenerOrigin } from './listener-address.ts';
import { checkWriteContentType } from './write-content-type.ts';

/** What the guard reads of a request: method, path, headers and the socket it arrived on. */
export type AdminRequestHead = {
  readonly method: string;
  readonly pathname: string;
  readonly headers: IncomingHttpHeaders;
  /** node's raw header list (names and values alternate): repeated headers stay visible. */
  readonly rawHeaders: readonly string[];
  readonly localAddress: string | undefined;
  readonly localPort: number | undefined;
};

const count = (raw: readonly string[], name: string): number => {
  let n = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) n++;
  return n;
};

/** Throws the refusal for a request the admin API must not serve. */
export function guardAdminRequest(head: AdminRequestHead, tokenHash: Buffer | undefined): void {
  const end = { localAddress: head.localAddress ?? '', localPort: head.localPort ?? 0 };
  const origin = head.headers.origin;
  if (origin !== undefined && !isListenerOrigin(origin, end)) {
    throw new GatewayError('ADMIN_FORBIDDEN', { message: `Forbidden: requests from origin ${origin} are not accepted` });
  }
  if (tokenHash !== undefined) {
    const token = head.headers[ADMIN_TOKEN_HEADER];
    if (typeof token !== 'string' || !adminTokenMatches(token, tokenHash)) throw new GatewayError('ADMIN_UNAUTHORIZED');
  } else {
    const host = head.headers.host;
    if (count(head.rawHeaders, 'host') !== 1 || !isListenerHost(host, end)) {
      throw new GatewayError('ADMIN_FORBIDDEN', { message: `Forbidden: ${host || 'a missing Host'} is not an address of this admin listener` });
    }
  }
  checkWriteContentType(head, tokenHash !== undefined);
}
