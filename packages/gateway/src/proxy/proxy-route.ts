import type { Address, Balancer } from '../balancer/index.ts';
import type { Route, Service, Upstream } from '../declarative/types.ts';
import type { UpstreamEndpoint, UpstreamTls } from './upstream-pool.ts';
import type { RoutePlugins } from '../plugins/index.ts';

/**
 * Everything the proxy needs for one route, resolved once per configuration load: the service,
 * and either the upstream's balancer or the service's own host:port.
 */
export type ProxyRoute = {
  readonly route: Route;
  readonly service: Service;
  /** The upstream named by service.host (Kong: then the ring balancer is used). */
  readonly upstream: Upstream | undefined;
  readonly balancer: Balancer | undefined;
  /** service.host:port when no upstream has that name. */
  readonly endpoint: UpstreamEndpoint | undefined;
  /** The Host header for `endpoint` (Kong balancer/init.lua set_host_header). */
  readonly endpointHostHeader: string;
  /** Set for https services. */
  readonly tls: UpstreamTls | undefined;
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
