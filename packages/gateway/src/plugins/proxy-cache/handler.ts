// kong/plugins/proxy-cache/handler.lua with the memory strategy: access computes Kong's cache
// key and answers a fresh stored response itself (Hit); otherwise the request goes upstream
// (Miss, Refresh, or Bypass when it may not be cached) and header_filter decides whether the
// response may be stored, body_filter watches its body go by (without changing it or its
// Content-Length) and stores it once complete.
import type { PluginContext, PluginExit } from '../plugin-context.ts';
import type { PluginHandler } from '../plugin-handler.ts';
import type { ResponseHead } from '../response-head.ts';
import { cacheDictionary } from './cache-dictionaries.ts';
import type { CacheDictionary, CachedResponse } from './cache-dictionary.ts';
import { buildCacheKey, headersKey, paramsKey, prefixUuid, type VaryValue } from './cache-key.ts';
import { mediaTypeMatches, parseDirectives, parseMediaType, resourceTtl, seconds, type Directives, type MediaType } from './directive-header.ts';
import { PROXY_CACHE_SCHEMA } from './schema.ts';

type ProxyCacheConfig = {
  readonly response_code: readonly number[];
  readonly request_method: readonly string[];
  readonly content_type: readonly string[];
  readonly cache_ttl: number;
  readonly cache_control: boolean;
  readonly ignore_uri_case: boolean | null;
  readonly storage_ttl: number | null;
  readonly memory: { readonly dictionary_name: string };
  readonly vary_query_params: readonly string[] | null;
  readonly vary_headers: readonly string[] | null;
  readonly response_headers: { readonly age: boolean; readonly 'X-Cache-Status': boolean; readonly 'X-Cache-Key': boolean };
};

/** What one request's access phase decided, for its header_filter and body_filter (Kong's kong.ctx.plugin). */
type CacheState = {
  key: string | undefined;
  /** X-Cache-Status to send; undefined: none (only-if-cached's 504). */
  status: 'Miss' | 'Refresh' | 'Bypass' | undefined;
  /** The response may be stored (signal_cache_req), until header_filter finds it may not. */
  signalled: boolean;
  /** Served from the cache: its headers are in the answer already. */
  hit: boolean;
  /** What header_filter kept of a cacheable response, for body_filter to store. */
  pending: { readonly status: number; readonly headers: string[]; readonly ttl: number } | undefined;
  readonly show: (header: 'age' | 'X-Cache-Status' | 'X-Cache-Key') => boolean;
};

const SHARED_KEY = 'proxy-cache';

// handler.lua hop_by_hop_headers (content-length included): never replayed from the cache.
const NOT_REPLAYED = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailers', 'transfer-encoding', 'upgrade', 'content-length', 'age', 'x-cache-status', 'x-cache-key']);
// What Kong adds after the plugins' header_filter (Via, latencies, request id): not part of the stored response.
const ADDED_BY_GATEWAY = new Set(['via', 'x-kong-upstream-latency', 'x-kong-proxy-latency', 'x-kong-response-latency', 'x-kong-request-id']);

const nowSeconds = (ms: number): number => Math.floor(ms / 1000);

/** The request's query arguments as kong.request.get_query() gives them. */
function queryArgs(ctx: PluginContext): Map<string, VaryValue> {
  const args = new Map<string, VaryValue>();
  for (const [k, v] of ctx.queryArgs()) {
    const prev = args.get(k);
    args.set(k, prev === undefined ? v : Array.isArray(prev) ? [...(prev as (string | true)[]), v] : [prev as string | true, v]);
  }
  return args;
}

/** proxy-cache, PRIORITY 100. */
export const PROXY_CACHE_HANDLER: PluginHandler = {
  name: PROXY_CACHE_SCHEMA.name,
  priority: PROXY_CACHE_SCHEMA.priority,
  build(config) {
    const conf = config as ProxyCacheConfig;
    const dictionary: CacheDictionary = cacheDictionary(conf.memory.dictionary_name);
    const methods = new Set(conf.request_method);
    const codes = new Set(conf.response_code);
    // A configured type that does not parse never matches (Kong skips it).
    const types = conf.content_type.map(parseMediaType).filter((t): t is MediaType => t !== undefined);

    // cacheable_request, and what RFC 9111 §3.5 asks of a shared cache: a request carrying
    // Authorization whose consumer no plugin identified is not answered from, nor stored in,
    // a key that other clients share (Kong checks a variable nginx never sets).
    const cacheableRequest = (ctx: PluginContext, cc: Directives): boolean => {
      if (!methods.has(ctx.method)) return false;
      if (conf.cache_control && (cc.has('no-store') || cc.has('no-cache'))) return false;
      if (ctx.consumer === undefined && ctx.header('authorization') !== undefined) return false;
      return true;
    };

    // cacheable_response; a response setting a cookie is not stored either (it would hand one
    // client's session to the next).
    const cacheableResponse = (head: ResponseHead, now: number): number | undefined => {
      if (!codes.has(head.status)) return undefined;
      const ct = head.getAll('content-type');
      if (ct.length !== 1 || ct[0] === '') return undefined;
      const actual = parseMediaType(ct[0]!);
      if (actual === undefined || !types.some((t) => mediaTypeMatches(t, actual))) return undefined;
      if (head.has('set-cookie')) return undefined;
      if (!conf.cache_control) return conf.cache_ttl;
      const cc = parseDirectives(head.getAll('cache-control'));
      if (cc.has('private') || cc.has('no-store') || cc.has('no-cache')) return undefined;
      const expires = head.getAll('expires');
      const ttl = resourceTtl(cc, expires[expires.length - 1], nowSeconds(now));
      return ttl > 0 ? ttl : undefined;
    };

    const store = (state: CacheState, body: Buffer): void => {
      const pending = state.pending!;
      state.pending = undefined;
      const now = Date.now();
      const entry: CachedResponse = { status: pending.status, headers: pending.headers, body, timestamp: nowSeconds(now), ttl: pending.ttl };
      dictionary.set(state.key!, entry, conf.storage_ttl ?? (conf.cache_control ? pending.ttl : conf.cache_ttl), now);
    };

    // The stored response as Kong's access phase sends it back on a hit.
    const replay = (state: CacheState, entry: CachedResponse, now: number): PluginExit => {
      const headers: string[] = [];
      const h = entry.headers;
      for (let i = 0; i < h.length; i += 2) {
        const lower = h[i]!.toLowerCase();
        if (NOT_REPLAYED.has(lower) || lower.includes('ratelimit-remaining')) continue;
        headers.push(h[i]!, h[i + 1]!);
      }
      if (state.show('age')) headers.push('age', String(nowSeconds(now) - entry.timestamp));
      if (state.show('X-Cache-Status')) headers.push('X-Cache-Status', 'Hit');
      if (state.show('X-Cache-Key')) headers.push('X-Cache-Key', state.key!);
      return { status: entry.status, message: '', replay: { headers, body: entry.body } };
    };

    // Whether a stored entry may answer this request (handler.lua's freshness checks).
    const stale = (cc: Directives, entry: CachedResponse, now: number): boolean => {
      const age = nowSeconds(now) - entry.timestamp;
      if (!conf.cache_control) return age > conf.cache_ttl;
      const maxAge = seconds(cc, 'max-age');
      if (maxAge !== undefined && age > maxAge) return true;
      const maxStale = seconds(cc, 'max-stale');
      if (maxStale !== undefined && age - entry.ttl > maxStale) return true;
      const minFresh = seconds(cc, 'min-fresh');
      return minFresh !== undefined && entry.ttl - age < minFresh;
    };

    return {
      access(ctx) {
        // Any Kong-Debug header shows the cache headers whatever response_headers says.
        const debug = ctx.header('kong-debug') !== undefined;
        const state: CacheState = {
          key: undefined, status: undefined, signalled: false, hit: false, pending: undefined,
          show: (header) => debug || conf.response_headers[header],
        };
        (ctx.shared ??= {})[SHARED_KEY] = state;
        const cc = parseDirectives(ctx.header('cache-control'));
        if (!cacheableRequest(ctx, cc)) {
          state.status = 'Bypass';
          return undefined;
        }
        // Kong's uri is $request (the request line) cut at `?`: "GET /p" with a query, "GET /p HTTP/1.1" without.
        let uri = `${ctx.method} ${ctx.target} HTTP/${ctx.httpVersion}`;
        const q = uri.indexOf('?');
        if (q !== -1) uri = uri.slice(0, q);
        if (conf.ignore_uri_case === true) uri = uri.toLowerCase();
        const key = buildCacheKey(
          prefixUuid(ctx.consumer?.id, ctx.routeId), ctx.method, uri,
          paramsKey(queryArgs(ctx), conf.vary_query_params), headersKey((name) => ctx.header(name), conf.vary_headers),
        );
        state.key = key;
        const now = Date.now();
        const entry = dictionary.get(key, now);
        if (entry === undefined) {
          // RFC 9111 §5.2.1.7: the client wants a stored response or nothing.
          if (conf.cache_control && cc.has('only-if-cached')) return { status: 504, message: '', body: null };
          state.status = 'Miss';
          state.signalled = true;
          return undefined;
        }
        if (stale(cc, entry, now)) {
          state.status = 'Refresh';
          state.signalled = true;
          return undefined;
        }
        state.hit = true;
        return replay(state, entry, now);
      },

      headerFilter(ctx, head) {
        const state = ctx.shared?.[SHARED_KEY] as CacheState | undefined;
        if (state === undefined || state.hit) return;
        // Kong sets these in access, so they are on whatever answer follows, and stored with it.
        if (state.key !== undefined && state.show('X-Cache-Key')) head.set('X-Cache-Key', state.key);
        if (state.status !== undefined && state.show('X-Cache-Status')) head.set('X-Cache-Status', state.status);
        // Only the answer being sent is stored: when the gateway answers in place of an upstream
        // head already seen (a 502 for a body a transform could not hold), that head is dropped.
        state.pending = undefined;
        if (!state.signalled) return;
        const ttl = cacheableResponse(head, Date.now());
        if (ttl === undefined) {
          state.signalled = false;
          if (state.show('X-Cache-Status')) head.set('X-Cache-Status', 'Bypass');
          return;
        }
        const headers: string[] = [];
        for (let i = 0; i < head.headers.length; i += 2) {
          if (!ADDED_BY_GATEWAY.has(head.headers[i]!.toLowerCase())) headers.push(head.headers[i]!, head.headers[i + 1]!);
        }
        state.pending = { status: head.status, headers, ttl };
        // A HEAD response has no body to wait for (body_filter does not run on it).
        if (ctx.method === 'HEAD') store(state, Buffer.alloc(0));
      },

      bodyFilter(ctx) {
        const state = ctx.shared?.[SHARED_KEY] as CacheState | undefined;
        if (state?.pending === undefined) return undefined;
        // The body goes to the client as it comes; a copy is kept while it fits the dictionary
        // (a response larger than the whole dictionary is never stored, nor held).
        const parts: Buffer[] = [];
        let size = 0;
        let fits = true;
        return {
          passthrough: true,
          write(chunk) {
            if (fits) {
              size += chunk.length;
              if (size > dictionary.capacity) {
                fits = false;
                parts.length = 0;
              } else {
                parts.push(chunk);
              }
            }
            return chunk;
          },
          end() {
            if (fits && state.pending !== undefined) store(state, Buffer.concat(parts, size));
            return undefined;
          },
        };
      },
    };
  },
};
