// URI path rules of Kong's schema and router: kong/tools/uri.lua normalize (percent-decoding of
// non-reserved characters, dot segments, merged slashes), typedefs.lua validate_path, and the
// 1.1/2.1 → 3.0 route path migration (kong/db/migrations/migrate_path_280_300.lua).
import type { Verdict } from './host-names.ts';

// RFC 3986 reserved characters plus '%': never percent-decoded by normalisation.
const RESERVED = new Set([...`!*'();:@&=+$,/?%#[]`].map((c) => c.charCodeAt(0)));

const HEX = /^[0-9A-Fa-f]{2}$/;
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function isUtf8(bytes: readonly number[]): boolean {
  try {
    strictUtf8.decode(Uint8Array.from(bytes));
    return true;
  } catch {
    return false;
  }
}

// Decodes byte by byte, as Kong's string.char does, so "%C3%A9" becomes "é" (UTF-8). A JS
// string cannot hold bytes that are not UTF-8: by default they become U+FFFD (what the schema's
// "non-normalized path" check compares); with `keepBytes` a run of encoded bytes that is not
// UTF-8 stays encoded, so escaping the result gives back the bytes Kong would forward.
function decodeUnreserved(path: string, keepBytes: boolean): string {
  // Common case, no encoded byte above 0x7f: one pass over the string, no byte buffers.
  if (!/%[89A-Fa-f][0-9A-Fa-f]/.test(path)) {
    return path.replace(/%([0-9A-Fa-f]{2})/g, (triplet, hex: string) => {
      const code = parseInt(hex, 16);
      return RESERVED.has(code) ? triplet.toUpperCase() : String.fromCharCode(code);
    });
  }
  const input = Buffer.from(path, 'utf8');
  const out: number[] = [];
  for (let i = 0; i < input.length; i++) {
    const byte = input[i] as number;
    const hex = byte === 0x25 ? input.subarray(i + 1, i + 3).toString('latin1') : '';
    if (!HEX.test(hex)) {
      out.push(byte);
      continue;
    }
    const code = parseInt(hex, 16);
    if (RESERVED.has(code)) out.push(0x25, ...Buffer.from(hex.toUpperCase(), 'latin1'));
    else if (code < 0x80 || !keepBytes) out.push(code);
    else {
      // The run of encoded bytes from here: decoded if it is UTF-8, else kept as sent.
      const run: number[] = [];
      let j = i;
      for (; input[j] === 0x25; j += 3) {
        const h = input.subarray(j + 1, j + 3).toString('latin1');
        if (!HEX.test(h) || parseInt(h, 16) < 0x80) break;
        run.push(parseInt(h, 16));
      }
      if (isUtf8(run)) out.push(...run);
      else out.push(...Buffer.from(input.subarray(i, j).toString('latin1').toUpperCase(), 'latin1'));
      i = j - 1;
      continue;
    }
    i += 2;
  }
  return Buffer.from(out).toString('utf8');
}

const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** Kong's `normalize(uri, merge_slashes)` (RFC 3986 §5.2.4 dot-segment removal). */
export function normalizePath(uri: string, mergeSlashes = true, keepBytes = false): string {
  if (uri === '' || uri === '/') return uri;
  let rest = uri.includes('%') ? decodeUnreserved(uri, keepBytes) : uri;
  // Nothing to do without a "." or ".." segment or (when merging) a "//".
  if (!DOT_SEGMENT.test(rest) && (!mergeSlashes || !rest.includes('//'))) return rest;
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

/**
 * The path a request is routed on (kong/router/utils.lua strip_uri_args): Kong's normalisation
 * with merged slashes, keeping encoded bytes that are not UTF-8 as sent.
 */
export function normalizeRequestPath(path: string): string {
  return normalizePath(path, true, true);
}

// kong/tools/uri.lua escape: what may travel as is in a request line or header; every other
// byte (of the UTF-8 form) is percent-encoded.
const TO_ESCAPE = /[^!#$&'()*+,/:;=?@[\]A-Za-z0-9\-_.~%]/;

/** Kong's `escape(uri)`: the normalised path made safe to forward, its meaning unchanged. */
export function escapeUri(uri: string): string {
  if (!TO_ESCAPE.test(uri)) return uri;
  let out = '';
  for (const byte of Buffer.from(uri, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && !TO_ESCAPE.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
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
