import type { Protocol } from '../declarative/types.ts';
import type { ProxyRoute } from '../proxy/proxy-route.ts';
import { Router, type RouterEntry } from '../router/index.ts';

/** The gRPC side of one configuration. */
export type GrpcState = {
  readonly router: Router<ProxyRoute>;
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

const GRPC = new Set<Protocol>(['grpc', 'grpcs']);

/**
 * Compiles the grpc/grpcs routes of a configuration (the Runtime's targets of routes whose
 * service is grpc/grpcs) for the HTTP router (hosts, headers, paths such as
 * `/package.Service/Method`, snis, Kong's priorities). The router speaks http/https: grpc
 * stands for cleartext HTTP/2 (h2c) and grpcs for HTTP/2 over TLS, so the protocols are handed
 * to it under those names.
 */
export function compileGrpcState(targets: Iterable<ProxyRoute>): GrpcState {
  const entries: RouterEntry<ProxyRoute>[] = [];
  const grpcsNames: string[] = [];
  let h2c = false;
  for (const value of targets) {
    const { route, service } = value;
    if (!route.protocols.some((p) => GRPC.has(p)) || !GRPC.has(service.protocol)) continue;
    if (route.protocols.includes('grpc')) h2c = true;
    if (route.protocols.includes('grpcs')) grpcsNames.push(...(route.snis ?? []), ...(route.hosts ?? []));
    const asHttp = { ...route, protocols: route.protocols.map((p): Protocol => (p === 'grpcs' ? 'https' : 'http')) };
    entries.push({ route: asHttp, servicePath: null, value });
  }
  return { router: new Router(entries), grpcsServerName: serverNameMatcher(grpcsNames), h2c };
}
