import { BlockList, isIP } from 'node:net';

/** What config allows beyond the safe default (CONNECT_ALLOW_HTTP, CONNECT_ALLOW_PRIVATE). */
export type ListenerPolicy = { readonly allowHttp: boolean; readonly allowPrivate: boolean };

/** Why a listener URL or address was refused; the message is client-facing. */
export class ListenerRefused extends Error {
  override name = 'ListenerRefused';
}

// Addresses a webhook must never reach unless allowed (SSRF): nothing here is a public
// listener. IPv4 (RFC 6890 special-purpose registry): RFC 1122 "this network", RFC 1918
// private, RFC 6598 shared (CGNAT), loopback, RFC 3927 link-local, RFC 6890 IETF protocol
// assignments, RFC 5737 documentation, RFC 2544 benchmarking (used inside some networks), and
// multicast and reserved up to broadcast. IPv6 (RFC 4291, RFC 4193): unspecified, loopback,
// unique-local, link-local, deprecated site-local, multicast, RFC 6666 discard, RFC 3849
// documentation, RFC 4380 Teredo (a tunnel whose IPv4 ends are obfuscated), and the RFC 8215
// local-use translation prefix 64:ff9b:1::/48 (a site's own NAT64, any embedding).
const FORBIDDEN = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 3],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['100::', 64], ['2001:db8::', 32], ['2001::', 32], ['64:ff9b:1::', 48],
] as const) {
  FORBIDDEN.addSubnet(network, prefix, 'ipv6');
}

/**
 * The IPv4 address an IPv6 address embeds, when it is IPv4-mapped (::ffff:a.b.c.d, RFC 4291
 * §2.5.5.2), IPv4-compatible (::a.b.c.d, deprecated), IPv4-translated (::ffff:0:a.b.c.d, RFC
 * 2765 SIIT), NAT64 (64:ff9b::/96, RFC 6052) or 6to4 (2002:aabb:ccdd::/48, RFC 3056): such an
 * address reaches the IPv4 host, so the IPv4 rules apply to it.
 */
function embeddedIpv4(ipv6: string): string | undefined {
  // The WHATWG URL parser prints IPv6 in its canonical compressed hex form.
  const canonical = new URL(`http://[${ipv6}]/`).hostname.slice(1, -1);
  const m = /^(?:::ffff:|::|::ffff:0:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical) ?? /^2002:([0-9a-f]{1,4}):([0-9a-f]{1,4})(?::|$)/.exec(canonical);
  if (!m) return undefined;
  const hi = parseInt(m[1] ?? '0', 16);
  const lo = parseInt(m[2] ?? '0', 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True when `address` (an IP literal) is loopback, private, link-local, unique-local, unspecified or otherwise not public. */
export function isForbiddenAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return FORBIDDEN.check(bare, 'ipv4');
  if (family !== 6) throw new TypeError(`not an IP address: ${address}`);
  const v4 = embeddedIpv4(bare);
  if (v4 !== undefined) return FORBIDDEN.check(v4, 'ipv4');
  return FORBIDDEN.check(bare, 'ipv6');
}

/**
 * Checks a listener URL without resolving it: http(s) only, https unless allowed, no
 * credentials in it, and an IP-literal host only when public (or allowed). WHATWG parsing
 * normalises the host first, so `http://2130706433/` and `http://0x7f.1/` are 127.0.0.1 here.
 */
export function assertListenerUrl(raw: string, policy: ListenerPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ListenerRefused(`"${raw}" is not an absolute URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ListenerRefused(`The listener URL must use https, got "${url.protocol}".`);
  if (url.protocol === 'http:' && !policy.allowHttp) throw new ListenerRefused('The listener URL must use https (plain http is not allowed on this service).');
  if (url.username !== '' || url.password !== '') throw new ListenerRefused('The listener URL must not carry credentials.');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && !policy.allowPrivate && isForbiddenAddress(host)) {
    throw new ListenerRefused(`The listener address ${host} is loopback, private, link-local or otherwise not public.`);
  }
  return url;
}

/**
 * Every resolved address of a host must be public (unless allowed). The refusal is the same
 * whether the name points inside or does not resolve, and names no address, so the check is no
 * oracle for which internal names exist or where they point.
 */
export function assertResolvedAddresses(addresses: readonly string[], policy: ListenerPolicy): void {
  if (policy.allowPrivate) return;
  if (addresses.length === 0 || addresses.some(isForbiddenAddress)) throw new ListenerRefused('The listener host is not a public address.');
}
