import { randomUUID } from 'node:crypto';
import { normalizePath } from '../declarative/normalize-path.ts';
import type { HashOn, Upstream } from '../declarative/types.ts';

/** The upstream fields that say what to hash (docs/gateway-observability.md). */
export type HashSettings = Pick<Upstream,
  | 'hash_on' | 'hash_fallback' | 'hash_on_header' | 'hash_fallback_header' | 'hash_on_cookie' | 'hash_on_cookie_path'
  | 'hash_on_query_arg' | 'hash_fallback_query_arg' | 'hash_on_uri_capture' | 'hash_fallback_uri_capture'>;

/**
 * The parts of a request a hash value can come from. A stream connection has only its client
 * address (nginx's stream module has no $http_*, $cookie_*, $uri or $arg_*): the other kinds
 * give no value there.
 */
export type HashRequest = {
  /** The client address ($remote_addr). */
  readonly clientIp: string;
  /** Request headers by lower-case name, repeated ones joined with ", " (as node:http does). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The raw path, without the query. */
  readonly path?: string;
  /** The raw query string without its `?` ('' when none). */
  readonly query?: string;
  /** Named and numbered captures of the matched regex route path. */
  readonly captures?: Readonly<Record<string, string | undefined>> | undefined;
  /** The id of the consumer an authentication plugin identified, if any. */
  readonly consumerId?: string | undefined;
};

/** A hash value and, for cookie hashing without the cookie, the Set-Cookie to answer with. */
export type HashValue = { readonly value: string; readonly setCookie?: string };

function decodeArg(s: string): string {
  const plus = s.includes('+') ? s.replace(/\+/g, ' ') : s;
  try {
    return decodeURIComponent(plus);
  } catch {
    return plus;
  }
}

/**
 * A query argument as Kong stringifies ngx.req.get_uri_args(): no `=` is "true", several
 * values are sorted and joined with ",", absent is undefined.
 */
export function queryArgValue(query: string, name: string): string | undefined {
  if (query === '') return undefined;
  const values: string[] = [];
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = decodeArg(eq === -1 ? part : part.slice(0, eq));
    if (key !== name) continue;
    values.push(eq === -1 ? 'true' : decodeArg(part.slice(eq + 1)));
  }
  if (values.length === 0) return undefined;
  if (values.length === 1) return values[0];
  return values.sort().join(',');
}

/** The value of cookie `name` in a Cookie header (RFC 6265 §5.4 pairs separated by ";"). */
export function cookieValue(header: string | string[] | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  const text = Array.isArray(header) ? header.join('; ') : header;
  for (const pair of text.split(';')) {
    const eq = pair.indexOf('=');
    if (eq === -1) continue;
    if (pair.slice(0, eq).trim() === name) return pair.slice(eq + 1).trim();
  }
  return undefined;
}

// nginx's $uri: percent-decoded (reserved characters too), dot segments resolved, slashes merged.
function nginxUri(path: string): string {
  let decoded = path;
  if (path.includes('%')) {
    try {
      decoded = decodeURIComponent(path);
    } catch {
      decoded = path;
    }
  }
  return normalizePath(decoded);
}

function headerValue(headers: HashRequest['headers'], name: string | null): string | undefined {
  if (name === null || headers === undefined) return undefined;
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : v;
}

function valueFor(kind: HashOn, header: string | null, queryArg: string | null, capture: string | null, req: HashRequest): string | undefined {
  switch (kind) {
    case 'ip':
      return req.clientIp.startsWith('::ffff:') ? req.clientIp.slice(7) : req.clientIp;
    case 'header':
      return headerValue(req.headers, header);
    case 'path':
      return req.path === undefined ? undefined : nginxUri(req.path);
    case 'query_arg':
      return queryArg === null || req.query === undefined ? undefined : queryArgValue(req.query, queryArg);
    case 'uri_capture':
      return capture === null ? undefined : req.captures?.[capture];
    case 'consumer':
      return req.consumerId;
    default:
      return undefined;
  }
}

/**
 * Kong balancer/init.lua get_value_to_hash, then its fallback: the value a consistent-hashing
 * upstream hashes for a request. Neither giving a value hashes "", so such
 * requests all go to one target. Cookie hashing always has a value: one is made up and sent
 * back (`Set-Cookie: <name>=<uuid>; Path=<path>; Same-Site=Lax; HttpOnly`, as Kong writes it).
 */
export function hashValueFor(s: HashSettings, req: HashRequest): HashValue {
  if (s.hash_on === 'cookie' && s.hash_on_cookie !== null && req.headers !== undefined) {
    const existing = cookieValue(req.headers.cookie, s.hash_on_cookie);
    if (existing !== undefined) return { value: existing };
    const value = randomUUID();
    return { value, setCookie: `${s.hash_on_cookie}=${value}; Path=${s.hash_on_cookie_path}; Same-Site=Lax; HttpOnly` };
  }
  const primary = valueFor(s.hash_on, s.hash_on_header, s.hash_on_query_arg, s.hash_on_uri_capture, req);
  if (primary !== undefined) return { value: primary };
  const fallback = valueFor(s.hash_fallback, s.hash_fallback_header, s.hash_fallback_query_arg, s.hash_fallback_uri_capture, req);
  if (fallback !== undefined) return { value: fallback };
  if (s.hash_fallback === 'cookie' && s.hash_on_cookie !== null && req.headers !== undefined) return hashValueFor({ ...s, hash_on: 'cookie' }, req);
  return { value: '' };
}
