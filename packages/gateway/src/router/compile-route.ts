import { compileHeaderRegex, compileRouteRegex } from '../declarative/pcre-regex.ts';
import type { Route } from '../declarative/types.ts';

/** A host pattern of `route.hosts`: exact, `*.x` (suffix) or `x.*` (prefix), with an optional port. */
type HostPattern = { readonly kind: 'exact' | 'suffix' | 'prefix'; readonly text: string; readonly port: number | undefined };

/** A header condition: any listed value (case-insensitive) or a `~*` regex. */
type HeaderCondition = { readonly name: string; readonly values: readonly string[]; readonly regexes: readonly RegExp[] };

/** One matcher: a route with at most one of its paths (Kong splits routes by path for priority). */
export type CompiledRoute = {
  readonly route: Route;
  readonly methods: ReadonlySet<string> | undefined;
  readonly hosts: readonly HostPattern[] | undefined;
  readonly headers: readonly HeaderCondition[];
  readonly snis: ReadonlySet<string> | undefined;
  /** Prefix path, or undefined. */
  readonly prefix: string | undefined;
  /** Anchored regex path, or undefined. */
  readonly regex: RegExp | undefined;
  /** Kong's priority fields, most significant first (kong/router/transform.lua get_priority). */
  readonly priority: readonly number[];
  /** File order, the last tie-breaker. */
  readonly order: number;
};

function compileHost(host: string): HostPattern {
  let text = host.toLowerCase();
  let port: number | undefined;
  const m = /^(.*):(\d+)$/.exec(text);
  if (m !== null && !text.startsWith('[')) {
    text = m[1]!;
    port = Number(m[2]);
  }
  if (text.startsWith('*.')) return { kind: 'suffix', text: text.slice(1), port };
  if (text.endsWith('.*')) return { kind: 'prefix', text: text.slice(0, -1), port };
  return { kind: 'exact', text, port };
}

/** Compiles a route into one matcher per path (or one without a path). */
export function compileRoute(route: Route, order: number): CompiledRoute[] {
  const methods = route.methods && route.methods.length > 0 ? new Set(route.methods) : undefined;
  const hosts = route.hosts && route.hosts.length > 0 ? route.hosts.map(compileHost) : undefined;
  const headers: HeaderCondition[] = [];
  for (const [name, list] of Object.entries(route.headers ?? {})) {
    const values: string[] = [];
    const regexes: RegExp[] = [];
    for (const v of list) {
      // The declarative module's compiler: what validation accepted is exactly what runs here.
      if (v.startsWith('~*')) regexes.push(compileHeaderRegex(v.slice(2)));
      else values.push(v.toLowerCase());
    }
    headers.push({ name: name.toLowerCase(), values, regexes });
  }
  const snis = route.snis && route.snis.length > 0 ? new Set(route.snis.map((s) => s.toLowerCase())) : undefined;
  const plainHostsOnly = hosts !== undefined && hosts.every((h) => h.kind === 'exact') ? 1 : 0;
  const paths = route.paths && route.paths.length > 0 ? route.paths : [undefined];
  const criteria = (methods ? 1 : 0) + (hosts ? 1 : 0) + (headers.length > 0 ? 1 : 0) + (snis ? 1 : 0) + (route.paths?.length ? 1 : 0);
  return paths.map((path) => {
    const isRegex = path !== undefined && path.startsWith('~');
    return {
      route,
      methods,
      hosts,
      headers,
      snis,
      prefix: path !== undefined && !isRegex ? path : undefined,
      regex: isRegex ? compileRouteRegex(path.slice(1)) : undefined,
      priority: [
        criteria,
        plainHostsOnly,
        headers.length,
        isRegex ? 1 : 0,
        isRegex ? route.regex_priority : 0,
        path === undefined ? 0 : path.length,
      ],
      order,
    };
  });
}

/** Orders matchers as Kong tries them: highest priority first, then file order. */
export function compareCompiledRoutes(a: CompiledRoute, b: CompiledRoute): number {
  for (let i = 0; i < a.priority.length; i++) {
    const d = b.priority[i]! - a.priority[i]!;
    if (d !== 0) return d;
  }
  return a.order - b.order;
}
