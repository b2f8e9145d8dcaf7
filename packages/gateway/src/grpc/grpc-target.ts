import { isIP } from 'node:net';
import type { Balancer } from '../balancer/index.ts';
import type { Protocol, Route, Service, Snapshot, Upstream } from '../declarative/types.ts';
import { hostHeaderFor } from '../proxy/proxy-route.ts';
import { Router, type RouterEntry } from '../router/index.ts';
import type { SessionTls } from './http2-session-pool.ts';
import type { PluginCombos, RoutePlugins } from '../plugins/index.ts';

/** Everything the gRPC proxy needs for one route, resolved once per configuration. */
export type GrpcTarget = {
  readonly route: Route;
  readonly service: Service;
  readonly upstream: Upstream | undefined;
  readonly balancer: Balancer | undefined;
  /** service.host:port when no upstream has that name. */
  readonly endpoint: { readonly host: string; readonly port: number; readonly key: string } | undefined;
  /** `:authority` for `endpoint` (kong.md §3.9: no port for 80/grpc, 443/grpcs). */
  readonly endpointAuthority: string;
  /** grpcs: HTTP/2 over TLS (ALPN h2) to the target. */
  readonly tls: SessionTls | undefined;
  /** The plugins that run on this route (the same access phase as HTTP requests); undefined when none. */
  readonly plugins: RoutePlugins | undefined;
};

function clientCertificateOf(snapshot: Snapshot, upstream: Upstream | undefined): SessionTls['clientCertificate'] {
  const ref = upstream?.client_certificate;
  if (ref === null || ref === undefined) return undefined;
  const c = snapshot.certificates.find((x) => x.id === ref.id);
  return c ? { id: c.id, cert: c.cert, key: c.key } : undefined;
}

/** The gRPC side of one configuration. */
export type GrpcState = {
  readonly router: Router<GrpcTarget>;
  /**
   * True for a TLS server name a grpcs route names in its `snis` or `hosts` (exact, `*.x`,
   * `x.*`): only those connections are offered HTTP/2 by ALPN, so browsers and other HTTP/2
   * clients of the HTTP routes keep HTTP/1.1.
   */
  readonly grpcsServerName: (servername: string) => boolean;
  /** Some route takes cleartext (h2c) calls: only then do plain listeners look for the preface. */
  readonly h2c: boolean;
};

function serverNameMatcher(names: readonly string[]): (servername: string) => boolean {
  const exact = new Set<string>();
  const suffixes: string[] = [];
  const prefixes: string[] = [];
  for (const raw of names) {
    const name = raw.toLowerCase().replace(/:\d+$/, '');
    if (name.startsWith('*.')) suffixes.push(name.slice(1));
    else if (name.endsWith('.*')) prefixes.push(name.slice(0, -1));
    else exact.add(name);
  }
  return (servername) => {
    const n = servername.toLowerCase();
    return exact.has(n) || suffixes.some((s) => n.endsWith(s) && n.length > s.length) || prefixes.some((p) => n.startsWith(p) && n.length > p.length);
  };
}

const GRPC_ROUTE = new Set<Protocol>(['grpc', 'grpcs']);

/**
 * Compiles the grpc/grpcs routes of a configuration for the HTTP router (hosts, headers, paths
 * such as `/package.Service/Method`, snis, Kong's priorities). The router speaks http/https:
 * grpc stands for cleartext HTTP/2 (h2c) and grpcs for HTTP/2 over TLS, so the protocols are
 * handed to it under those names.
 */
export function compileGrpcState(snapshot: Snapshot, balancers: ReadonlyMap<string, Balancer>, plugins?: PluginCombos): GrpcState {
  const services = new Map(snapshot.services.map((s) => [s.id, s]));
  const upstreams = new Map(snapshot.upstreams.map((u) => [u.name, u]));
  const entries: RouterEntry<GrpcTarget>[] = [];
  const grpcsNames: string[] = [];
  let h2c = false;
  for (const route of snapshot.routes) {
    if (!route.protocols.some((p) => GRPC_ROUTE.has(p))) continue;
    const service = route.service === null ? undefined : services.get(route.service.id);
    if (service === undefined || !service.enabled || !GRPC_ROUTE.has(service.protocol)) continue;
    const upstream = upstreams.get(service.host);
    const servername = upstream ? upstream.host_header?.replace(/:\d+$/, '') : service.host;
    const value: GrpcTarget = {
      route,
      service,
      upstream,
      balancer: upstream ? balancers.get(upstream.name) : undefined,
      endpoint: upstream ? undefined : { host: service.host, port: service.port, key: `${service.host}:${service.port}` },
      endpointAuthority: hostHeaderFor(service.host, service.port, service.protocol),
      tls: service.protocol === 'grpcs'
        ? {
            rejectUnauthorized: service.tls_verify === true,
            servername: servername !== undefined && isIP(servername) === 0 ? servername : undefined,
            // Kong allows client_certificate on https/tls services only; for grpcs the upstream's is sent.
            clientCertificate: clientCertificateOf(snapshot, upstream),
          }
        : undefined,
      plugins: plugins?.forRoute(route.id, service.id),
    };
    if (route.protocols.includes('grpc')) h2c = true;
    if (route.protocols.includes('grpcs')) grpcsNames.push(...(route.snis ?? []), ...(route.hosts ?? []));
    const asHttp = { ...route, protocols: route.protocols.map((p): Protocol => (p === 'grpcs' ? 'https' : 'http')) };
    entries.push({ route: asHttp, servicePath: null, value });
  }
  return { router: new Router(entries), grpcsServerName: serverNameMatcher(grpcsNames), h2c };
}
