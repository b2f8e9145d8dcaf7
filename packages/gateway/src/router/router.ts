import type { Route } from '../declarative/types.ts';
import { escapeUri, normalizeRequestPath } from '../declarative/normalize-path.ts';
import { compareCompiledRoutes, compileRoute, type CompiledRoute } from './compile-route.ts';
import { composeUpstreamPath } from './compose-upstream-path.ts';

/** What the router looks at in a request. */
export type RouterRequest = {
  readonly method: string;
  /** The Host header as sent (may carry a port). */
  readonly host: string | undefined;
  /** The request path as sent, without the query string (routing normalises it). */
  readonly path: string;
  /** Request headers by lower-case name, as node:http gives them. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly scheme: 'http' | 'https';
  /** The port the client connected to (for hosts with a port). */
  readonly port: number;
  /** TLS server name, when the client sent one. */
  readonly sni?: string | undefined;
};

/** A matched route: its payload, the upstream path, or the https redirect it asks for. */
export type RouteMatch<T> = {
  readonly route: Route;
  readonly value: T;
  /** The path to forward: composed from the normalised path, escaped as Kong does. */
  readonly upstreamPath: string;
  /** The part of the normalised path the route's path matched (prefix, or whole regex match). */
  readonly matched: string;
  /** Named and numbered groups of a regex path match (upstream hash_on uri_capture), if any. */
  readonly captures: Readonly<Record<string, string | undefined>> | undefined;
  /** Set when the route is https-only and the request came over http (Kong: 426 by default). */
  readonly httpsRedirectStatus: number | undefined;
};

/** A route and what the caller wants back when it matches (its service's path is needed here). */
export type RouterEntry<T> = { readonly route: Route; readonly servicePath: string | null; readonly value: T };

type Compiled<T> = CompiledRoute & { readonly entry: RouterEntry<T> };

function hostMatches(c: CompiledRoute, host: string, port: number): boolean {
  for (const h of c.hosts!) {
    if (h.port !== undefined && h.port !== port) continue;
    if (h.kind === 'exact' ? host === h.text : h.kind === 'suffix' ? host.endsWith(h.text) : host.startsWith(h.text)) {
      return true;
    }
  }
  return false;
}

function headerMatches(c: CompiledRoute, headers: RouterRequest['headers']): boolean {
  for (const cond of c.headers) {
    const raw = headers[cond.name];
    if (raw === undefined) return false;
    const sent = Array.isArray(raw) ? raw : [raw];
    let ok = false;
    for (const value of sent) {
      const lower = value.toLowerCase();
      if (cond.values.includes(lower) || cond.regexes.some((r) => r.test(value))) {
        ok = true;
        break;
      }
    }
    if (!ok) return false;
  }
  return true;
}

// Kong's uri_captures: numbered groups by position, named ones by name as well.
function capturesOf(m: RegExpExecArray): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...m.groups };
  for (let i = 1; i < m.length; i++) out[i] = m[i];
  return out;
}

/**
 * Kong's router (traditional_compatible flavour): matchers sorted by Kong's priority, first hit
 * wins. Built once per configuration; `find` allocates only the returned match.
 */
export class Router<T> {
  readonly #matchers: readonly Compiled<T>[];
  /** Some route matches on headers: only then does the caller need to hand them over. */
  readonly usesHeaders: boolean;

  constructor(entries: readonly RouterEntry<T>[]) {
    const matchers: Compiled<T>[] = [];
    entries.forEach((entry, i) => {
      for (const c of compileRoute(entry.route, i)) matchers.push({ ...c, entry });
    });
    this.#matchers = matchers.sort(compareCompiledRoutes);
    this.usesHeaders = matchers.some((m) => m.headers.length > 0);
  }

  /** The best route for the request, or undefined (→ 404 NO_ROUTE). */
  find(req: RouterRequest): RouteMatch<T> | undefined {
    let host = '';
    let hostPort = req.port;
    if (req.host !== undefined) {
      host = req.host.toLowerCase();
      const colon = host.lastIndexOf(':');
      if (colon !== -1 && !host.endsWith(']')) {
        hostPort = Number(host.slice(colon + 1));
        host = host.slice(0, colon);
      }
    }
    // Kong routes on the normalised path (kong/router/utils.lua strip_uri_args), so dot
    // segments cannot carry a request to a route its real path does not match.
    const path = normalizeRequestPath(req.path);
    for (const c of this.#matchers) {
      if (c.methods !== undefined && !c.methods.has(req.method)) continue;
      if (c.hosts !== undefined && !hostMatches(c, host, hostPort)) continue;
      if (c.snis !== undefined && (req.sni === undefined || !c.snis.has(req.sni.toLowerCase()))) continue;
      if (c.headers.length > 0 && !headerMatches(c, req.headers)) continue;
      let matched = '';
      let captures: Record<string, string | undefined> | undefined;
      if (c.prefix !== undefined) {
        if (!path.startsWith(c.prefix)) continue;
        matched = c.prefix;
      } else if (c.regex !== undefined) {
        const m = c.regex.exec(path);
        if (m === null) continue;
        matched = m[0];
        if (m.length > 1) captures = capturesOf(m);
      }
      const route = c.route;
      const httpsRedirectStatus =
        req.scheme === 'http' && !route.protocols.includes('http') && route.protocols.includes('https')
          ? route.https_redirect_status_code
          : undefined;
      if (httpsRedirectStatus === undefined && !route.protocols.includes(req.scheme)) continue;
      return {
        route,
        value: c.entry.value,
        upstreamPath: escapeUri(composeUpstreamPath(c.entry.servicePath, path, matched, route.strip_path)),
        matched,
        captures,
        httpsRedirectStatus,
      };
    }
    return undefined;
  }
}
