// Kong's stream router (traditional_compatible flavour, kong/router/transform.lua): routes whose
// protocols are tcp, tls or tls_passthrough, matched on sources, destinations and snis.
import { BlockList, isIP } from 'node:net';
import type { Protocol, Route, RouteEndpoint } from '../declarative/types.ts';

/** The protocol a stream connection is routed as. */
export type StreamProtocol = 'tcp' | 'tls' | 'tls_passthrough';

/** What the router looks at in a connection. */
export type StreamRequest = {
  readonly protocol: StreamProtocol;
  readonly sourceIp: string;
  readonly sourcePort: number;
  /** The local address and port the client connected to. */
  readonly destinationIp: string;
  readonly destinationPort: number;
  /** ClientHello server name (lower-case), when the client sent one. */
  readonly sni: string | undefined;
};

type EndpointMatcher = { readonly ips: BlockList | undefined; readonly port: number | undefined };
type SniPattern = { readonly kind: 'exact' | 'suffix' | 'prefix'; readonly text: string };

type Compiled<T> = {
  readonly route: Route;
  readonly value: T;
  readonly protocols: ReadonlySet<Protocol>;
  readonly sources: readonly EndpointMatcher[] | undefined;
  readonly destinations: readonly EndpointMatcher[] | undefined;
  readonly snis: readonly SniPattern[] | undefined;
  readonly priority: readonly number[];
  readonly order: number;
};

/** A route and what the caller wants back when it matches. */
export type StreamRouterEntry<T> = { readonly route: Route; readonly value: T };

/** True for the route protocols this router serves. */
export function isStreamRoute(route: Route): boolean {
  return route.protocols.some((p) => p === 'tcp' || p === 'tls' || p === 'tls_passthrough');
}

// IPv4-mapped IPv6 (a dual-stack listener's view of an IPv4 client) is compared as IPv4.
function plainIp(ip: string): string {
  return ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
}

function compileEndpoint(e: RouteEndpoint): EndpointMatcher {
  let ips: BlockList | undefined;
  if (e.ip !== undefined) {
    ips = new BlockList();
    const [ip = '', prefix] = e.ip.split('/');
    const type = isIP(ip) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) ips.addAddress(ip, type);
    else ips.addSubnet(ip, Number(prefix), type);
  }
  return { ips, port: e.port };
}

function endpointMatches(list: readonly EndpointMatcher[], ip: string, port: number): boolean {
  const addr = plainIp(ip);
  const type = isIP(addr) === 6 ? 'ipv6' : 'ipv4';
  for (const e of list) {
    if (e.port !== undefined && e.port !== port) continue;
    if (e.ips !== undefined && !e.ips.check(addr, type)) continue;
    return true;
  }
  return false;
}

// Route snis may be wildcards in the traditional_compatible router: `*.x` or `x.*`.
function compileSni(name: string): SniPattern {
  const text = name.toLowerCase();
  if (text.startsWith('*.')) return { kind: 'suffix', text: text.slice(1) };
  if (text.endsWith('.*')) return { kind: 'prefix', text: text.slice(0, -1) };
  return { kind: 'exact', text };
}

function sniMatches(list: readonly SniPattern[], sni: string): boolean {
  for (const p of list) {
    if (p.kind === 'exact' ? sni === p.text : p.kind === 'suffix' ? sni.endsWith(p.text) && sni.length > p.text.length : sni.startsWith(p.text) && sni.length > p.text.length) return true;
  }
  return false;
}

/**
 * Stream routes sorted by Kong's priority, first hit wins: (1) the number of criteria set among
 * sources, destinations and snis; (2) snis without wildcards first; then file order.
 * Within a criterion any listed value matches; all criteria a route sets must match.
 */
export class StreamRouter<T> {
  readonly #routes: readonly Compiled<T>[];

  constructor(entries: readonly StreamRouterEntry<T>[]) {
    const compiled = entries.map(({ route, value }, order): Compiled<T> => {
      const sources = route.sources && route.sources.length > 0 ? route.sources.map(compileEndpoint) : undefined;
      const destinations = route.destinations && route.destinations.length > 0 ? route.destinations.map(compileEndpoint) : undefined;
      const snis = route.snis && route.snis.length > 0 ? route.snis.map(compileSni) : undefined;
      const criteria = (sources ? 1 : 0) + (destinations ? 1 : 0) + (snis ? 1 : 0);
      const plainSnis = snis !== undefined && snis.every((s) => s.kind === 'exact') ? 1 : 0;
      return { route, value, protocols: new Set(route.protocols), sources, destinations, snis, priority: [criteria, plainSnis], order };
    });
    compiled.sort((a, b) => b.priority[0]! - a.priority[0]! || b.priority[1]! - a.priority[1]! || a.order - b.order);
    this.#routes = compiled;
  }

  /** True when some route serves this protocol (lets a TLS listener skip passthrough lookups). */
  serves(protocol: StreamProtocol): boolean {
    return this.#routes.some((r) => r.protocols.has(protocol));
  }

  /** The best route for the connection, or undefined (Kong closes the connection). */
  find(req: StreamRequest): StreamRouterEntry<T> | undefined {
    for (const c of this.#routes) {
      if (!c.protocols.has(req.protocol)) continue;
      if (c.sources !== undefined && !endpointMatches(c.sources, req.sourceIp, req.sourcePort)) continue;
      if (c.destinations !== undefined && !endpointMatches(c.destinations, req.destinationIp, req.destinationPort)) continue;
      if (c.snis !== undefined && (req.sni === undefined || !sniMatches(c.snis, req.sni))) continue;
      return { route: c.route, value: c.value };
    }
    return undefined;
  }
}
