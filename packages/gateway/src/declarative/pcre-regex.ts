// Kong's route regexes are PCRE (ngx.re); the router here runs JS RegExp. The common PCRE
// spellings are translated; anything JS cannot compile is reported as Kong reports a PCRE error:
// "invalid regex: '<re>' (PCRE returned: <reason>)" (typedefs.lua validate_path_with_regexes).
//
// These regexes run on what clients send. Kong's router runs them in Rust's linear-time regex
// crate; V8's backtracking engine can take exponential time on a pattern such as
// `/files/(\w+/?)+/download$` and a 40-byte path, stalling a worker for hours. V8 can run such a
// regex again in its linear-time engine once it has backtracked too long: that is switched on
// for the whole process here, where every operator-written regex (routes, header values, cors
// origins, bot-detection) is compiled after. Normal matches keep the fast engine. What the
// linear engine cannot run (backreferences, lookarounds) stays as fast or as slow as written;
// case-insensitive patterns are rewritten without `/i` (fold-ascii-case.ts), which it lacks.
import { setFlagsFromString } from 'node:v8';
import { foldAsciiCase } from './fold-ascii-case.ts';

setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** `source` matching case-insensitively: folded into a plain pattern where it can be, else `/i`. */
function caseless(source: string, flags: string): RegExp {
  const folded = foldAsciiCase(source);
  return folded === undefined ? new RegExp(source, `${flags}i`) : new RegExp(folded, flags);
}

/** Translates PCRE-only syntax to JS: `(?P<n>` and `(?<n>` groups, `(?P=n)`, `\A`, `\z`, `\Z`. */
export function pcreToJsSource(pcre: string): string {
  return pcre
    .replace(/\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/g, '(?<$1>')
    .replace(/\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/g, '\\k<$1>')
    .replace(/(^|[^\\])\\A/g, '$1^')
    .replace(/(^|[^\\])\\z/g, '$1$')
    .replace(/(^|[^\\])\\Z/g, '$1(?=\\n?$)');
}

// A leading inline (?i) is PCRE's way to ask for case-insensitivity; JS wants a flag.
function inlineFlags(pcre: string): { source: string; flags: string } {
  const inline = /^\(\?([imsx]+)\)/.exec(pcre);
  if (inline === null || inline[1] === undefined || inline[1].includes('x')) return { source: pcre, flags: '' };
  return { source: pcre.slice(inline[0].length), flags: inline[1] };
}

/** Compiles a route regex path (without its `~`) anchored at the start, as Kong's router does. */
export function compileRouteRegex(pcre: string): RegExp {
  const { source, flags } = inlineFlags(pcre);
  const anchored = `^(?:${pcreToJsSource(source)})`;
  // Compiled as written first, so a pattern JS refuses is reported with JS's own reason.
  const plain = new RegExp(anchored, flags);
  return flags.includes('i') ? caseless(anchored, flags.replace('i', '')) : plain;
}

// V8's reasons whose PCRE2 counterpart is certain: both find these at the very end of the
// pattern (PCRE2's error offset is then the pattern's length), so nginx's ngx.re writes
// `pcre2_compile() failed: <PCRE2's text> in "<pattern>"` with no ` at "…"` part.
const PCRE2_AT_END: ReadonlyMap<string, string> = new Map([
  ['Unterminated group', 'missing closing parenthesis'],
  ['Unterminated character class', 'missing terminating ] for character class'],
  ['\\ at end of pattern', '\\ at end of pattern'],
]);

// Where PCRE2 could find a problem earlier in the pattern than V8 does, V8's reason stays: a
// letter escape other than those both read alike (PCRE2 refuses \g, \k, \c, \N{…}, \Q…, \u, …
// that JS takes as the letter), a POSIX bracket (`[:alpha:]` outside a class is an error in
// PCRE2) and `[]` / `[^]` (a `]` first in a class is a literal in PCRE2, an empty class in JS).
function pcre2ReadsAlike(pcre: string): boolean {
  if (/\[[:.=]|\[\^?\]/.test(pcre)) return false;
  for (let i = 0; i < pcre.length; i++) {
    if (pcre[i] !== '\\') continue;
    const next = pcre[++i] ?? '';
    if (/[A-Za-z]/.test(next) && !'dDwWsSbBnrtfv'.includes(next)) return false;
  }
  return true;
}

const v8Reason = (e: unknown): string =>
  e instanceof Error ? e.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '') : String(e);

/**
 * "invalid regex: '<re>' (PCRE returned: <reason>)" for a regex JS cannot compile: PCRE2's own
 * words where V8's reason maps to them for certain (compiled bare, as PCRE2 sees it, not in the
 * router's anchoring group), else V8's reason.
 */
function invalidRegex(pcre: string, source: string, flags: string, e: unknown): string {
  let reason = v8Reason(e);
  try {
    new RegExp(source, flags);
  } catch (bare) {
    reason = v8Reason(bare);
  }
  const pcre2 = PCRE2_AT_END.get(reason);
  if (pcre2 !== undefined && pcre2ReadsAlike(pcre)) reason = `pcre2_compile() failed: ${pcre2} in "${pcre}"`;
  return `invalid regex: '${pcre}' (PCRE returned: ${reason})`;
}

/** Kong's error text for a regex JS cannot compile, or undefined when it compiles. */
export function validateRouteRegex(pcre: string): string | undefined {
  try {
    compileRouteRegex(pcre);
    return undefined;
  } catch (e) {
    const { source, flags } = inlineFlags(pcre);
    return invalidRegex(pcre, pcreToJsSource(source), flags, e);
  }
}

/** Compiles a route header value regex (the part after `~*`): case-insensitive, unanchored. */
export function compileHeaderRegex(pcre: string): RegExp {
  const source = pcreToJsSource(pcre);
  // Compiled as written first, so a pattern JS refuses is reported with JS's own reason.
  new RegExp(source, 'i');
  return caseless(source, '');
}

/** Kong-style error text for a header regex JS cannot compile, or undefined. */
export function validateHeaderRegex(pcre: string): string | undefined {
  try {
    compileHeaderRegex(pcre);
    return undefined;
  } catch (e) {
    return invalidRegex(pcre, pcreToJsSource(pcre), 'i', e);
  }
}
