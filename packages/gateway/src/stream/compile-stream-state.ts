import type { Route } from '../declarative/types.ts';
import type { ProxyRoute } from '../proxy/proxy-route.ts';
import { isStreamRoute, StreamRouter } from './stream-router.ts';

/** The stream side of one configuration. */
export type StreamState = { readonly router: StreamRouter<ProxyRoute> };

// Services a stream route may point at: bytes are relayed as they are (tcp, tls_passthrough) or
// over TLS to the target (tls). Kong's schema lets routes and services of other families meet;
// such a route never matches a stream connection here.
const STREAM_SERVICE_PROTOCOLS = new Set(['tcp', 'tls', 'tls_passthrough']);

/**
 * Compiles the stream routes of a configuration (the Runtime's targets, balanced by the same
 * balancers as the HTTP proxy, so a connection is balanced like a request).
 */
export function compileStreamState(targets: Iterable<ProxyRoute>): StreamState {
  const entries: { route: Route; value: ProxyRoute }[] = [];
  for (const value of targets) {
    if (!isStreamRoute(value.route) || !STREAM_SERVICE_PROTOCOLS.has(value.service.protocol)) continue;
    entries.push({ route: value.route, value });
  }
  return { router: new StreamRouter(entries) };
}
