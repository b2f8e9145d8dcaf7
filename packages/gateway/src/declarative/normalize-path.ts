// URI path rules of Kong's schema and router: kong/tools/uri.lua normalize (percent-decoding of
// non-reserved characters, dot segments, merged slashes), typedefs.lua validate_path, and the
// 1.1/2.1 → 3.0 route path migration (kong/db/migrations/migrate_path_280_300.lua).
import type { Verdict } from './host-names.ts';

// RFC 3986 reserved characters plus '%': never percent-decoded by normalisation.
const RESERVED = new Set([...`!*'();:@&=+$,/?%#[]`].map((c) => c.charCodeAt(0)));

// Decodes byte by byte, as Kong's string.char does, so "%C3%A9" becomes "é" (UTF-8).
function decodeUnreserved(path: string): string {
  const input = Buffer.from(path, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const byte = input[i] as number;
    const hex = byte === 0x25 ? input.subarray(i + 1, i + 3).toString('latin1') : '';
    if (/^[0-9A-Fa-f]{2}$/.test(hex)) {
      const code = parseInt(hex, 16);
      if (RESERVED.has(code)) out.push(0x25, ...Buffer.from(hex.toUpperCase(), 'latin1'));
      else out.push(code);
      i += 2;
    } else out.push(byte);
  }
  return Buffer.from(out).toString('utf8');
}

/** Kong's `normalize(uri, merge_slashes)` (RFC 3986 §5.2.4 dot-segment removal). */
export function normalizePath(uri: string, mergeSlashes = true): string {
  if (uri === '' || uri === '/') return uri;
  let rest = uri.includes('%') ? decodeUnreserved(uri) : uri;
  if (!rest.includes('.') && (!mergeSlashes || !rest.includes('//'))) return rest;
  const out: string[] = [];
  while (rest.length > 0) {
    if (rest === '/.') rest = '/';
    else if (rest === '/..') {
      rest = '/';
      out.pop();
    } else if (rest === '.' || rest === '..') rest = '';
    else if (rest.startsWith('../')) rest = rest.slice(3);
    else if (rest.startsWith('./')) rest = rest.slice(2);
    else if (rest.startsWith('/./')) rest = rest.slice(2);
    else if (rest.startsWith('/../')) {
      rest = rest.slice(3);
      out.pop();
    } else if (mergeSlashes && rest.startsWith('//')) rest = rest.slice(1);
    else {
      const i = rest.indexOf('/', 1);
      out.push(i === -1 ? rest : rest.slice(0, i));
      rest = i === -1 ? '' : rest.slice(i);
    }
  }
  return out.join('');
}

/** typedefs.lua validate_path: RFC 3986 path characters and well-formed percent-encoding. */
export function validatePathCharacters(path: string): { error: string; kind: 'rfc3986' | 'percent' } | undefined {
  if (!/^\/[A-Za-z0-9.\-_~/%:@!$&'()*+,;=]*$/.test(path)) {
    return { error: `invalid path: '${path}' (characters outside of the reserved list of RFC 3986 found)`, kind: 'rfc3986' };
  }
  const raw = path.replace(/%[0-9A-Fa-f]{2}/g, '___');
  const bad = /%.?.?/.exec(raw);
  if (bad !== null) return { error: `invalid url-encoded value: '${bad[0]}'`, kind: 'percent' };
  return undefined;
}

/** typedefs.path's custom validator (service path, http_path, hash_on_cookie_path). */
export function validatePath(path: string): Verdict {
  return validatePathCharacters(path)?.error;
}

/** migrate_path_280_300: plain paths are normalised, anything else becomes a `~` regex path. */
export function migrateRoutePath(path: string): string {
  if (/^[a-zA-Z0-9.\-_~/%]*$/.test(path)) return normalizePath(path, true);
  return '~' + normalizeRegexPath(path);
}

// Percent-decoding of a legacy regex path: reserved characters stay encoded, regex
// metacharacters are escaped, the rest decoded (migrate_path_280_300.lua normalize_regex).
const MIGRATION_RESERVED = new Set([0x21, 0x23, 0x24, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2a, 0x2b, 0x2c, 0x2f, 0x3a, 0x3b, 0x3d, 0x3f, 0x40, 0x5b, 0x5d]);
const REGEX_META: Readonly<Record<number, string>> = {
  0x2e: '\\.', 0x5e: '\\^', 0x2d: '\\-', 0x7b: '\\{', 0x7d: '\\}', 0x5c: '\\\\', 0x7c: '\\|',
};

function normalizeRegexPath(regex: string): string {
  if (!regex.includes('%')) return regex;
  return regex.replace(/%([0-9A-Fa-f]{2})/g, (triplet, hex: string) => {
    const code = parseInt(hex, 16);
    if (MIGRATION_RESERVED.has(code)) return triplet.toUpperCase();
    return REGEX_META[code] ?? String.fromCharCode(code);
  });
}
