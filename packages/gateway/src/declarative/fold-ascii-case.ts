// V8 runs a regex that backtracks too long again in its linear-time engine (the flag set in
// pcre-regex.ts), but that engine has no case-insensitive mode: a `/i` regex stays on the
// backtracking engine whatever it costs. Header regexes (`~*`) and `(?i)` routes are
// case-insensitive, so they are rewritten without the flag: each ASCII letter becomes the class
// of its two cases. For a pattern of ASCII characters this is exactly what `/i` matches without
// the `u` flag (there, no character ≥ 128 folds to or from ASCII).

const LOWER_A = 0x61;
const LOWER_Z = 0x7a;
const UPPER_A = 0x41;
const UPPER_Z = 0x5a;
/** Escapes that stand for classes or assertions, the same under `/i`. */
const CASELESS_ESCAPES = new Set(['d', 'D', 'w', 'W', 's', 'S', 'b', 'B']);
/** Escapes of one control character (`\b` is backspace inside a class). */
const CONTROL_ESCAPES: Record<string, number> = { n: 0x0a, r: 0x0d, t: 0x09, f: 0x0c, v: 0x0b, '0': 0x00 };

const isLetter = (code: number) => (code >= LOWER_A && code <= LOWER_Z) || (code >= UPPER_A && code <= UPPER_Z);
const otherCase = (code: number) => (code >= LOWER_A ? code - 32 : code + 32);
const hex = (code: number) => `\\x${code.toString(16).padStart(2, '0')}`;

/** One character of a pattern read at `i`: its code (undefined for a class escape such as `\d`) and where the next one starts. */
type Atom = { readonly code: number | undefined; readonly text: string; readonly end: number };

/** Reads an escape at `i` (the backslash); undefined when it cannot be rewritten safely (backreferences, `\p`, unknown letters). */
function readEscape(source: string, i: number, inClass: boolean): Atom | undefined {
  const c = source[i + 1];
  if (c === undefined) return undefined;
  if (CASELESS_ESCAPES.has(c)) {
    if (c === 'b' && inClass) return { code: 0x08, text: '\\b', end: i + 2 };
    return { code: undefined, text: `\\${c}`, end: i + 2 };
  }
  const control = CONTROL_ESCAPES[c];
  if (control !== undefined && !(c === '0' && /[0-9]/.test(source[i + 2] ?? ''))) return { code: control, text: `\\${c}`, end: i + 2 };
  if (c === 'x' && /^[0-9a-fA-F]{2}$/.test(source.slice(i + 2, i + 4))) return { code: Number.parseInt(source.slice(i + 2, i + 4), 16), text: source.slice(i, i + 4), end: i + 4 };
  if (c === 'u' && /^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) return { code: Number.parseInt(source.slice(i + 2, i + 6), 16), text: source.slice(i, i + 6), end: i + 6 };
  if (c === 'c' && /^[A-Za-z]$/.test(source[i + 2] ?? '')) return { code: source.charCodeAt(i + 2) % 32, text: source.slice(i, i + 3), end: i + 3 };
  // Letters and digits left are backreferences or identity escapes that `u`-less mode reads oddly.
  if (/[A-Za-z0-9]/.test(c) || c.charCodeAt(0) >= 0x80) return undefined;
  return { code: c.charCodeAt(0), text: `\\${c}`, end: i + 2 };
}

/** A class body `[...]` from `i` (after `[` and any `^`) to its `]`: the same, plus the other case of every letter it holds. */
function foldClass(source: string, start: number): { text: string; end: number } | undefined {
  let i = start;
  let text = '';
  const extra: string[] = [];
  const addOtherCase = (lo: number, hi: number) => {
    for (const [from, to] of [[LOWER_A, LOWER_Z], [UPPER_A, UPPER_Z]] as const) {
      const a = Math.max(lo, from);
      const b = Math.min(hi, to);
      if (a <= b) extra.push(a === b ? hex(otherCase(a)) : `${hex(otherCase(a))}-${hex(otherCase(b))}`);
    }
  };
  // A `]` first in the class is a literal in JS only as `[]` (the empty class): keep JS's reading.
  while (i < source.length && source[i] !== ']') {
    const first = readClassAtom(source, i);
    if (first === undefined) return undefined;
    i = first.end;
    if (source[i] === '-' && source[i + 1] !== ']' && i + 1 < source.length) {
      const second = readClassAtom(source, i + 1);
      if (second === undefined) return undefined;
      if (first.code === undefined || second.code === undefined) return undefined;
      text += `${first.text}-${second.text}`;
      addOtherCase(first.code, second.code);
      i = second.end;
      continue;
    }
    // A literal `-` is escaped: the other cases are appended after it and must not make a range.
    text += first.text === '-' ? '\\-' : first.text;
    if (first.code !== undefined) addOtherCase(first.code, first.code);
  }
  if (source[i] !== ']') return undefined;
  return { text: text + extra.join(''), end: i + 1 };
}

function readClassAtom(source: string, i: number): Atom | undefined {
  const ch = source[i];
  if (ch === undefined) return undefined;
  if (ch === '\\') return readEscape(source, i, true);
  if (ch.charCodeAt(0) >= 0x80) return undefined;
  return { code: ch.charCodeAt(0), text: ch, end: i + 1 };
}

/**
 * The pattern without case-insensitivity: every ASCII letter, in classes and out, also matching
 * its other case. Undefined when it cannot be rewritten safely (a character ≥ 128, a
 * backreference, a `\p` escape, a class it cannot read): the caller keeps the `/i` flag then.
 */
export function foldAsciiCase(source: string): string | undefined {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const ch = source[i]!;
    const code = ch.charCodeAt(0);
    if (code >= 0x80) return undefined;
    if (ch === '\\') {
      const atom = readEscape(source, i, false);
      if (atom === undefined) return undefined;
      out += atom.code !== undefined && isLetter(atom.code) ? `[${atom.text}${hex(otherCase(atom.code))}]` : atom.text;
      i = atom.end;
    } else if (ch === '[') {
      const negated = source[i + 1] === '^';
      const body = foldClass(source, i + (negated ? 2 : 1));
      if (body === undefined) return undefined;
      out += `[${negated ? '^' : ''}${body.text}]`;
      i = body.end;
    } else if (ch === '(' && source[i + 1] === '?' && source[i + 2] === '<' && source[i + 3] !== '=' && source[i + 3] !== '!') {
      // A group's name is a name, not letters to match.
      const close = source.indexOf('>', i);
      if (close === -1) return undefined;
      out += source.slice(i, close + 1);
      i = close + 1;
    } else {
      out += isLetter(code) ? `[${ch}${String.fromCharCode(otherCase(code))}]` : ch;
      i += 1;
    }
  }
  return out;
}
