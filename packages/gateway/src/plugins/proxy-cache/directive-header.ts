// The Cache-Control and Content-Type readings proxy-cache makes (kong/tools/http.lua
// parse_directive_header and calculate_resource_ttl, kong/tools/mime_type.lua parse_mime_type).

/** A directive's value: a number when it reads as one, else the text, or `true` without `=`. */
export type Directives = ReadonlyMap<string, number | string | true>;

/** parse_directive_header: `no-cache, max-age=5` → {no-cache: true, max-age: 5}; several headers joined by ", ". */
export function parseDirectives(value: string | readonly string[] | undefined): Directives {
  const out = new Map<string, number | string | true>();
  if (value === undefined) return out;
  const text = typeof value === 'string' ? value : value.join(', ');
  for (const part of text.split(',')) {
    const m = /^\s*([^=]+)(?:=(.+))?/.exec(part);
    if (m === null) continue;
    const raw = m[2];
    const n = raw === undefined ? NaN : Number(raw);
    out.set(m[1]!.toLowerCase(), raw === undefined ? true : raw.trim() !== '' && !Number.isNaN(n) ? n : raw);
  }
  return out;
}

/** A directive as a number of seconds, or undefined when absent or not a number. */
export const seconds = (cc: Directives, name: string): number | undefined => {
  const v = cc.get(name);
  return typeof v === 'number' ? v : undefined;
};

/**
 * calculate_resource_ttl: `s-maxage`, else `max-age`, else `Expires` (its last value) from now;
 * never below 0, and 0 when none says.
 */
export function resourceTtl(cc: Directives, expires: string | undefined, nowSeconds: number): number {
  let maxAge = seconds(cc, 's-maxage') ?? seconds(cc, 'max-age');
  if (maxAge === undefined && expires !== undefined) {
    const at = Date.parse(expires);
    if (!Number.isNaN(at)) maxAge = Math.floor(at / 1000) - nowSeconds;
  }
  return maxAge === undefined ? 0 : Math.max(maxAge, 0);
}

/** A media type as parse_mime_type reads it: type and subtype lower-cased, parameter names too. */
export type MediaType = { readonly type: string; readonly subtype: string; readonly params: ReadonlyMap<string, string> };

const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const PARAM = new RegExp(`^[ \\t]*;[ \\t]*(${TOKEN})=(?:(${TOKEN})|"((?:[^"\\\\\\x00-\\x1f\\x7f]|\\\\[\\x00-\\x7f])*)")`);
const TYPES = new RegExp(`^(?:(${TOKEN})/(${TOKEN})|\\*)`);

/** parse_mime_type (RFC 2045 media-type, `*` for any); undefined when it does not parse as a whole. */
export function parseMediaType(text: string): MediaType | undefined {
  const t = TYPES.exec(text);
  if (t === null) return undefined;
  const params = new Map<string, string>();
  let rest = text.slice(t[0].length);
  while (rest !== '') {
    const p = PARAM.exec(rest);
    if (p === null) return undefined;
    params.set(p[1]!.toLowerCase(), p[2] ?? p[3]!.replace(/\\(.)/g, '$1'));
    rest = rest.slice(p[0].length);
  }
  return t[1] === undefined ? { type: '*', subtype: '*', params } : { type: t[1].toLowerCase(), subtype: t[2]!.toLowerCase(), params };
}

/**
 * handler.lua's content-type test: type and subtype equal (or `*` in the configured one), and
 * exactly the configured parameters with the same values.
 */
export function mediaTypeMatches(expected: MediaType, actual: MediaType): boolean {
  if (expected.type !== '*' && expected.type !== actual.type) return false;
  if (expected.subtype !== '*' && expected.subtype !== actual.subtype) return false;
  if (expected.params.size !== actual.params.size) return false;
  for (const [k, v] of expected.params) if (actual.params.get(k) !== v) return false;
  return true;
}
