import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { assertListenerUrl, assertResolvedAddresses, ListenerRefused, type ListenerPolicy } from './listener-address-policy.ts';

/** Resolves a host to every address (dns.lookup with all: true); tests inject their own. */
export type ResolveHost = (host: string) => Promise<string[]>;

export const systemResolve: ResolveHost = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true }, (err, addresses) => (err ? reject(err) : resolve(addresses.map((a) => a.address))));
  });

/**
 * Configuration-time check of a listener URL: the URL rules, then every address its host
 * resolves to must be public (unless allowed). Throws ListenerRefused; a host that does not
 * resolve (within `resolveTimeoutMs`) is refused too, as DocuSign cannot post to it either.
 */
export async function assertListener(raw: string, policy: ListenerPolicy, resolveHost: ResolveHost = systemResolve, resolveTimeoutMs = 5_000): Promise<URL> {
  const url = assertListenerUrl(raw, policy);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (policy.allowPrivate || isIP(host) !== 0) return url;
  let addresses: string[];
  // A resolver that never answers (getaddrinfo can take tens of seconds) must not hold the
  // request: past the deadline the name counts as not resolving.
  let deadline: NodeJS.Timeout | undefined;
  try {
    addresses = await Promise.race([
      resolveHost(host),
      new Promise<string[]>((resolve) => (deadline = setTimeout(() => resolve([]), resolveTimeoutMs))),
    ]);
  } catch {
    addresses = [];
  } finally {
    clearTimeout(deadline);
  }
  assertResolvedAddresses(addresses, policy);
  return url;
}

/**
 * A `lookup` for the delivery's socket (node:net's option): resolves as usual, then refuses
 * when any resolved address is not public. This is the check against the address actually
 * connected to: a name that resolved to a public address at configuration time and to
 * 127.0.0.1 now (DNS rebinding) fails here, before any byte is sent.
 */
export function guardedLookup(policy: ListenerPolicy): LookupFunction {
  return (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      // A name that does not resolve is answered like one pointing inside: the failure log a
      // tenant reads must not tell which names exist.
      if (err && !policy.allowPrivate) return callback(Object.assign(new ListenerRefused('The listener host is not a public address.'), { code: err.code }), '');
      if (err) return callback(err, '');
      try {
        assertResolvedAddresses(addresses.map((a) => a.address), policy);
      } catch (refused) {
        return callback(Object.assign(refused as Error, { code: 'ECONNREFUSED' }), '');
      }
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      return first ? callback(null, first.address, first.family) : callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), '');
    });
  };
}
