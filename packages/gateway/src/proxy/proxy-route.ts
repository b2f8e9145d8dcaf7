import type { Address, Balancer } from '../balancer/index.ts';
import type { Route, Service, Snapshot, Upstream } from '../declarative/types.ts';
import type { PluginCombos, RoutePlugins } from '../plugins/index.ts';
import type { UpstreamEndpoint } from './upstream-pool.ts';

/**
 * TLS from the gateway to the target, for https, grpcs and tls services: verification follows
 * tls_verify; the client certificate is the service's, else its upstream's (Kong allows one on
 * https/tls services only, so a grpcs service sends its upstream's).
 */
export type TargetTls = {
  readonly rejectUnauthorized: boolean;
  /**
   * The SNI gRPC and stream targets get: upstream.host_header without its port, or service.host
   * (no upstream); undefined → the address host. An IP literal sends none. HTTP targets get the
   * name of the Host header sent upstream instead (server-name.ts).
   */
  readonly servername: string | undefined;
  readonly clientCertificate?: { readonly id: string; readonly cert: string; readonly key: string };
};

/**
 * One route as every transport proxies it (HTTP, gRPC, stream), resolved once per configuration
 * load by the Runtime: the service, and either the upstream's balancer or the service's own
 * host:port, TLS to the target, the route's plugins.
 */
export type ProxyRoute = {
  readonly route: Route;
  readonly service: Service;
  /** The upstream named by service.host (Kong: then the ring balancer is used). */
  readonly upstream: Upstream | undefined;
  readonly balancer: Balancer | undefined;
  /** service.host:port when no upstream has that name. */
  readonly endpoint: UpstreamEndpoint | undefined;
  /** The Host header (`:authority` for gRPC) for `endpoint` (Kong balancer/init.lua set_host_header). */
  readonly endpointHostHeader: string;
  /** Set for https, grpcs and tls services. */
  readonly tls: TargetTls | undefined;
  /** The plugins that run on this route, compiled at load; undefined when none does. */
  readonly plugins: RoutePlugins | undefined;
};

/** Kong balancer/init.lua set_host_header: `:port` unless it is the scheme's default. */
export function hostHeaderFor(host: string, port: number, scheme: string): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  if ((port === 80 && (scheme === 'http' || scheme === 'grpc')) || (port === 443 && (scheme === 'https' || scheme === 'grpcs'))) {
    return h;
  }
  return `${h}:${port}`;
}

/** The Host header for an attempt on a balancer address: upstream.host_header, else the address host. */
export function addressHostHeader(upstream: Upstream, address: Pick<Address, 'host' | 'port'>, scheme: string): string {
  const header = upstream.host_header;
  // A host_header that carries its own port is used as written.
  if (header !== null && /:\d+$/.test(header)) return header;
  return hostHeaderFor(header ?? address.host, address.port, scheme);
}

const TLS_PROTOCOLS = new Set(['https', 'grpcs', 'tls']);

function targetTls(snapshot: Snapshot, service: Service, upstream: Upstream | undefined): TargetTls | undefined {
  if (!TLS_PROTOCOLS.has(service.protocol)) return undefined;
  const ref = service.client_certificate ?? upstream?.client_certificate ?? null;
  const certificate = ref === null ? undefined : snapshot.certificates.find((c) => c.id === ref.id);
  return {
    rejectUnauthorized: service.tls_verify === true,
    servername: upstream ? upstream.host_header?.replace(/:\d+$/, '') : service.host,
    ...(certificate ? { clientCertificate: { id: certificate.id, cert: certificate.cert, key: certificate.key } } : {}),
  };
}

/** The parts of a load every route's target is compiled against. */
export type TargetSources = {
  readonly snapshot: Snapshot;
  readonly upstreams: ReadonlyMap<string, Upstream>;
  readonly balancers: ReadonlyMap<string, Balancer>;
  readonly plugins: PluginCombos | undefined;
};

/** Compiles one route with its (enabled) service into the target every transport uses. */
export function compileProxyRoute(sources: TargetSources, route: Route, service: Service): ProxyRoute {
  const upstream = sources.upstreams.get(service.host);
  return {
    route,
    service,
    upstream,
    balancer: upstream ? sources.balancers.get(upstream.name) : undefined,
    endpoint: upstream
      ? undefined
      : { host: service.host, port: service.port, key: `${service.host.includes(':') ? `[${service.host}]` : service.host}:${service.port}` },
    endpointHostHeader: upstream ? '' : hostHeaderFor(service.host, service.port, service.protocol),
    tls: targetTls(sources.snapshot, service, upstream),
    plugins: sources.plugins?.forRoute(route.id, service.id),
  };
}
