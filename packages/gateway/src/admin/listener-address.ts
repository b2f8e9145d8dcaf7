// The admin listener's own addresses, as a browser would name them in Host and Origin. A page
// on another site can reach 127.0.0.1 by DNS rebinding (its own name, re-resolved to loopback),
// but cannot make the browser send Host: 127.0.0.1 or an Origin that is not its own; so a Host
// or Origin that names anything but this listener marks a request from a foreign page.
import { isIPv4, isIPv6 } from 'node:net';

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopbackAddress(address: string): boolean {
  const ip = address.toLowerCase().startsWith('::ffff:') && isIPv4(address.slice(7)) ? address.slice(7) : address;
  if (isIPv4(ip)) return ip.startsWith('127.');
  return isIPv6(ip) && canonicalHostname(`[${ip}]`) === '[::1]';
}

// The WHATWG URL parser's host: lower case, IPv4 dotted, IPv6 compressed; undefined if invalid.
function canonicalHostname(host: string): string | undefined {
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

// host[:port] with nothing else (no userinfo, path or spaces), as RFC 9110 §7.2 allows.
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::\d{1,5})?$/;

/** Host names the listener answers to on a connection to `localAddress`. */
function ownNames(localAddress: string): Set<string> {
  const mapped = localAddress.toLowerCase().startsWith('::ffff:') && isIPv4(localAddress.slice(7));
  const ip = mapped ? localAddress.slice(7) : localAddress;
  const names = new Set<string>([(isIPv6(ip) ? canonicalHostname(`[${ip}]`) : ip) ?? ip]);
  if (isLoopbackAddress(ip)) for (const name of ['localhost', '127.0.0.1', '[::1]']) names.add(name);
  return names;
}

/** The socket end the request came in on: the listener's address and port. */
export type ListenerEnd = { readonly localAddress: string; readonly localPort: number };

function isOwn(authority: string, end: ListenerEnd): boolean {
  if (!AUTHORITY.test(authority)) return false;
  let url: URL;
  try {
    url = new URL(`http://${authority}`);
  } catch {
    return false;
  }
  const port = url.port === '' ? 80 : Number(url.port);
  return port === end.localPort && ownNames(end.localAddress).has(url.hostname);
}

/** A Host header naming this listener: its IP (any loopback name when on loopback) and port. */
export function isListenerHost(host: string | undefined, end: ListenerEnd): boolean {
  return host !== undefined && isOwn(host, end);
}

/** An Origin header that is this listener's own (`http://` + one of its Host values). */
export function isListenerOrigin(origin: string, end: ListenerEnd): boolean {
  const m = /^http:\/\/([^/?#@]+)$/i.exec(origin);
  return m !== null && isOwn(m[1]!, end);
}
