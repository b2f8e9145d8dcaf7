/** The proxy request handler for one listener. */
export { createProxyHandler, type ProxyListener, type RequestHandler } from './create-proxy-handler.ts';
/** The health checker's hook: every attempt's outcome. */
export type { AttemptOutcome, ProxyHooks } from './proxy-hooks.ts';
/** What a route resolves to, and Kong's Host-header rule. */
export { addressHostHeader, compileProxyRoute, hostHeaderFor, type ProxyRoute, type TargetSources, type TargetTls } from './proxy-route.ts';
/** Keep-alive connections to upstream addresses. */
export { UpstreamPool, type UpstreamEndpoint, type UpstreamPoolOptions, type UpstreamTls } from './upstream-pool.ts';
/** Kong's version tokens and request ids. */
export { KONG_VERSION, RequestIdSource, SERVER, VIA } from './kong-headers.ts';
/** Kong's passive-report rules between the proxy's attempts and a NodeHealth. */
export { passiveHealthHooks } from './passive-health-hooks.ts';
