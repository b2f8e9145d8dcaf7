// The client address as Kong's nginx computes $remote_addr with its real_ip settings (Kong's
// trusted_ips / real_ip_header / real_ip_recursive → nginx set_real_ip_from / real_ip_header /
// real_ip_recursive, ngx_http_realip_module): only a connection from a trusted address may name
// another client in the header; otherwise the socket's address stands.
import { isIP } from 'node:net';
import { plainAddress, type IpSet } from './ip-set.ts';

/** Kong's real_ip settings, validated. */
export type RealIpSettings = {
  /** trusted_ips; undefined = NONE (the header is never believed, Kong's default). */
  readonly trusted: IpSet | undefined;
  /** real_ip_header, lower-case (default x-real-ip). */
  readonly header: string;
  /** real_ip_recursive: walk the list leftwards past trusted addresses. */
  readonly recursive: boolean;
};

// One list element as nginx's ngx_parse_addr_port reads it: an address, `a.b.c.d:port` or
// `[v6]:port`; the port is dropped. Undefined when it is not an address.
function elementAddress(element: string): string | undefined {
  if (isIP(element) !== 0) return element;
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(element);
  if (bracketed !== null) return isIP(bracketed[1]!) === 6 ? bracketed[1] : undefined;
  const v4port = /^(\d+\.\d+\.\d+\.\d+):\d{1,5}$/.exec(element);
  return v4port !== null && isIP(v4port[1]!) === 4 ? v4port[1] : undefined;
}

/**
 * $remote_addr for a connection from `socketAddress` with these request headers (node's
 * rawHeaders, name/value pairs). Elements are read right to left (nginx's
 * ngx_http_get_forwarded_addr): without recursion the last one wins; with it, the first that
 * is not trusted, or the leftmost when all are. An element that is not an address stops the
 * walk, keeping what was found so far.
 */
export function realClientAddress(socketAddress: string, rawHeaders: readonly string[], settings: RealIpSettings): string {
  const socket = plainAddress(socketAddress);
  const trusted = settings.trusted;
  if (trusted === undefined || !trusted.has(socket)) return socket;
  let value: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() !== settings.header) continue;
    // X-Forwarded-For lines are one list (nginx joins them); another header: its first line.
    if (settings.header !== 'x-forwarded-for') {
      value = rawHeaders[i + 1]!;
      break;
    }
    value = value === undefined ? rawHeaders[i + 1]! : value + ', ' + rawHeaders[i + 1]!;
  }
  if (value === undefined) return socket;
  const elements = value.split(/[ ,]+/).filter((e) => e !== '');
  let found: string | undefined;
  for (let i = elements.length - 1; i >= 0; i--) {
    const address = elementAddress(elements[i]!);
    if (address === undefined) break;
    found = plainAddress(address);
    if (!settings.recursive || !trusted.has(found)) break;
  }
  return found ?? socket;
}

/** Kong's defaults: nothing trusted, X-Real-IP, not recursive. */
export const DEFAULT_REAL_IP: RealIpSettings = { trusted: undefined, header: 'x-real-ip', recursive: false };
