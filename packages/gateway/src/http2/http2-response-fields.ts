import type { OutgoingHttpHeaders } from 'node:http';

// RFC 9113 §8.2.2: connection-specific fields must not appear in HTTP/2, and node:http2 throws on
// them (lib/internal/http2/util.js isIllegalConnectionSpecificHeader). An upstream's usual ones
// are dropped as hop-by-hop already; these also come from the gateway's own answers (Connection:
// close after a refused body, 426's Upgrade) and from upstreams (HTTP2-Settings, RFC 7540 §3.2.1,
// only meaningful on an h2c upgrade; TE, which node accepts only as "trailers").
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'http2-settings', 'te']);

// node:http2 refuses a second value for these (lib/internal/http2/util.js kSingleValueHeaders,
// Node 20; pseudo-headers left out, the proxy never writes one).
const SINGLE_VALUE = new Set([
  'access-control-allow-credentials', 'access-control-max-age', 'access-control-request-method', 'age', 'authorization',
  'content-encoding', 'content-language', 'content-length', 'content-location', 'content-md5', 'content-range',
  'content-type', 'date', 'dnt', 'etag', 'expires', 'from', 'host', 'if-match', 'if-modified-since', 'if-none-match',
  'if-range', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards', 'proxy-authorization', 'range',
  'referer', 'retry-after', 'tk', 'upgrade-insecure-requests', 'user-agent', 'x-content-type-options',
]);

/** A response head as the proxy writes it: rawHeaders-style pairs or node's header object. */
export type ResponseFields = OutgoingHttpHeaders | readonly string[];

/** False for a field an HTTP/2 response must not carry. */
export function isHttp2ResponseField(lowerName: string): boolean {
  return !CONNECTION_SPECIFIC.has(lowerName);
}

/** True for a field node:http2 sends once at most. */
export function isSingleValueField(lowerName: string): boolean {
  return SINGLE_VALUE.has(lowerName);
}

/**
 * The HTTP/2 form of a response head written for HTTP/1.1: connection-specific fields dropped,
 * and a single-value field that came more than once kept at its first value. nginx does the
 * same with an upstream's repeated Content-Type, Location, ETag, Last-Modified, ... ("upstream
 * sent duplicate header line ..., ignoring", ngx_http_upstream.c process_header_line); fields
 * nginx would repeat (X-Content-Type-Options) node:http2 cannot, and the first is the one a
 * client reading HTTP/1.1 would have honoured. Any other repeated field (Set-Cookie) stays.
 */
export function http2ResponseFields(headers: ResponseFields | undefined): ResponseFields | undefined {
  if (headers === undefined) return undefined;
  if (Array.isArray(headers)) {
    const list = headers as readonly string[];
    const out: string[] = [];
    let seen: Set<string> | undefined;
    for (let i = 0; i < list.length; i += 2) {
      const lower = list[i]!.toLowerCase();
      if (CONNECTION_SPECIFIC.has(lower)) continue;
      if (SINGLE_VALUE.has(lower)) {
        if (seen?.has(lower) === true) continue;
        (seen ??= new Set()).add(lower);
      }
      out.push(list[i]!, list[i + 1]!);
    }
    return out;
  }
  const out: OutgoingHttpHeaders = {};
  let seen: Set<string> | undefined;
  for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders)) {
    const lower = name.toLowerCase();
    if (CONNECTION_SPECIFIC.has(lower)) continue;
    if (SINGLE_VALUE.has(lower)) {
      // Two spellings of one name in an object ("Content-Type" and "content-type") count as one field.
      if (seen?.has(lower) === true) continue;
      (seen ??= new Set()).add(lower);
      out[name] = Array.isArray(value) ? value[0] : value;
      continue;
    }
    out[name] = value;
  }
  return out;
}
