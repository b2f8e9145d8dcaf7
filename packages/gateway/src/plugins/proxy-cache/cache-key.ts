// kong/plugins/proxy-cache/cache_key.lua: the cache key is the SHA-256 (hex) of
// `prefix|method|uri|params|headers`, so a key seen in X-Cache-Key is the one Kong computes for
// the same route, consumer and request.
import { createHash } from 'node:crypto';

/** A query argument or header as Kong's get_query/get_headers give it: a value, `true` (a bare `?a`), or a list. */
export type VaryValue = string | true | readonly (string | true)[] | undefined;

/** prefix_uuid: `consumer:route` for an authenticated request, the route alone, else `default`. */
export function prefixUuid(consumerId: string | undefined, routeId: string | undefined): string {
  if (consumerId !== undefined && routeId !== undefined) return `${consumerId}:${routeId}`;
  return routeId ?? 'default';
}

// generate_key_from: `field=value` (lists sorted, joined by commas; a bare argument as its name)
// for each field present, in the fields' order, joined by colons.
function keyFrom(lookup: (field: string) => VaryValue, fields: readonly string[]): string {
  const out: string[] = [];
  for (const field of fields) {
    const arg = lookup(field);
    if (arg === undefined) continue;
    if (Array.isArray(arg)) out.push(`${field}=${[...(arg as readonly (string | true)[])].map(String).sort().join(',')}`);
    else if (arg === true) out.push(field);
    else out.push(`${field}=${String(arg)}`);
  }
  return out.join(':');
}

/** params_key: the `vary_query_params` present, or every argument (names sorted) when none are configured. */
export function paramsKey(args: ReadonlyMap<string, VaryValue>, varyQueryParams: readonly string[] | null): string {
  const fields = varyQueryParams !== null && varyQueryParams.length > 0 ? varyQueryParams : [...args.keys()].sort();
  return keyFrom((f) => args.get(f), fields);
}

/** headers_key: the `vary_headers` present (looked up as the request's headers are), or nothing when none are configured. */
export function headersKey(header: (name: string) => VaryValue, varyHeaders: readonly string[] | null): string {
  if (varyHeaders === null || varyHeaders.length === 0) return '';
  return keyFrom(header, varyHeaders);
}

/** build_cache_key. */
export function buildCacheKey(prefix: string, method: string, uri: string, params: string, headers: string): string {
  return createHash('sha256').update(`${prefix}|${method}|${uri}|${params}|${headers}`).digest('hex');
}
