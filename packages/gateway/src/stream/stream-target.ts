import type { Balancer } from '../balancer/index.ts';
import type { Certificate, Route, Service, Snapshot, Upstream } from '../declarative/types.ts';
import { isStreamRoute, StreamRouter } from './stream-router.ts';

/** TLS from the gateway to the target (service protocol `tls`). */
export type TargetTls = {
  readonly rejectUnauthorized: boolean;
  /** The SNI sent to the target: upstream.host_header or service.host; undefined → the address host. IPs are never sent. */
  readonly servername: string | undefined;
  /** Service (else upstream) `client_certificate`, PEM. */
  readonly clientCertificate: { readonly cert: string; readonly key: string } | undefined;
};

/** Everything the stream proxy needs for one route, resolved once per configuration. */
export type StreamTarget = {
  readonly route: Route;
  readonly service: Service;
  /** The upstream named by service.host (then its balancer is used). */
  readonly upstream: Upstream | undefined;
  readonly balancer: Balancer | undefined;
  /** service.host:port when no upstream has that name. */
  readonly endpoint: { readonly host: string; readonly port: number; readonly key: string } | undefined;
  readonly tls: TargetTls | undefined;
};

/** The stream side of one configuration. */
export type StreamState = { readonly router: StreamRouter<StreamTarget> };

// Services a stream route may point at: bytes are relayed as they are (tcp, tls_passthrough) or
// over TLS to the target (tls). Kong's schema lets routes and services of other families meet;
// such a route never matches a stream connection here.
const STREAM_SERVICE_PROTOCOLS = new Set(['tcp', 'tls', 'tls_passthrough']);

function pemPair(snapshot: Snapshot, ref: { readonly id: string } | null): { cert: string; key: string } | undefined {
  if (ref === null) return undefined;
  const c: Certificate | undefined = snapshot.certificates.find((x) => x.id === ref.id);
  return c ? { cert: c.cert, key: c.key } : undefined;
}

/**
 * Compiles the stream routes of a configuration against the runtime's balancers (one per
 * upstream, shared with the HTTP proxy so a connection is balanced like a request).
 */
export function compileStreamState(snapshot: Snapshot, balancers: ReadonlyMap<string, Balancer>): StreamState {
  const services = new Map(snapshot.services.map((s) => [s.id, s]));
  const upstreams = new Map(snapshot.upstreams.map((u) => [u.name, u]));
  const entries: { route: Route; value: StreamTarget }[] = [];
  for (const route of snapshot.routes) {
    if (!isStreamRoute(route)) continue;
    const service = route.service === null ? undefined : services.get(route.service.id);
    if (service === undefined || !service.enabled || !STREAM_SERVICE_PROTOCOLS.has(service.protocol)) continue;
    const upstream = upstreams.get(service.host);
    const tls: TargetTls | undefined = service.protocol === 'tls'
      ? {
          rejectUnauthorized: service.tls_verify === true,
          servername: upstream ? upstream.host_header?.replace(/:\d+$/, '') : service.host,
          clientCertificate: pemPair(snapshot, service.client_certificate) ?? (upstream ? pemPair(snapshot, upstream.client_certificate) : undefined),
        }
      : undefined;
    entries.push({
      route,
      value: {
        route,
        service,
        upstream,
        balancer: upstream ? balancers.get(upstream.name) : undefined,
        endpoint: upstream ? undefined : { host: service.host, port: service.port, key: `${service.host}:${service.port}` },
        tls,
      },
    });
  }
  return { router: new StreamRouter(entries) };
}
