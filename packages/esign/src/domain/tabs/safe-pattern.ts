import { EsignError } from '../../errors.ts';

/** A validationPattern that compiled and passed the backtracking bound. */
export type SafePattern = { readonly source: string; readonly regex: RegExp };

export const MAX_PATTERN_LENGTH = 500;
/**
 * The most backtracking steps a match may take in the worst case, as estimated below: about a
 * tenth of a second of V8's engine, spent at most once per tab at Finish.
 */
export const MAX_MATCH_STEPS = 1e8;

type Repeat = { max: number; body: { quantified: boolean; alternation: boolean } | undefined };

/**
 * The repeats of a pattern (a quantifier with an upper bound above 1, and what it applies to),
 * read by a small scanner of JavaScript regex syntax; throws on a backreference, which makes
 * matching exponential whatever the bound.
 */
function scanRepeats(source: string, fail: (why: string) => never): { repeats: Repeat[]; topLevelAlternation: boolean } {
  const repeats: Repeat[] = [];
  let topLevelAlternation = false;
  // Per open group: does its body hold a repeat or an alternation?
  const groups: { quantified: boolean; alternation: boolean }[] = [];
  let i = 0;
  const markQuantified = () => groups.forEach((g) => (g.quantified = true));
  while (i < source.length) {
    const c = source[i]!;
    let atomGroup: { quantified: boolean; alternation: boolean } | undefined;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') fail('backreferences (\\1, \\k<name>) are not allowed: they make matching take exponential time.');
      i += 2;
    } else if (c === '[') {
      // A character class is one atom; skip to its unescaped closing bracket.
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      groups.push({ quantified: false, alternation: false });
      i++;
      // (?:  (?=  (?!  (?<=  (?<!  (?<name>: skip the group's prefix.
      if (source[i] === '?') {
        if (source[i + 1] !== '<') i += 2;
        else if (source[i + 2] === '=' || source[i + 2] === '!') i += 3;
        else i = source.indexOf('>', i) + 1;
      }
      continue;
    } else if (c === ')') {
      atomGroup = groups.pop();
      i++;
    } else if (c === '|') {
      const g = groups[groups.length - 1];
      if (g) g.alternation = true;
      else topLevelAlternation = true;
      i++;
      continue;
    } else {
      i++;
    }
    // A quantifier after the atom just read.
    const q = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(i));
    if (q) {
      const max = q[1] === '?' ? 1 : q[1] ? Infinity : q[3] === undefined ? Number(q[2]) : q[4] === '' ? Infinity : Number(q[4]);
      if (max > 1) {
        repeats.push({ max, body: atomGroup });
        markQuantified();
      }
      i += q[0].length;
    }
  }
  return { repeats, topLevelAlternation };
}

/**
 * Compiles a sender's validationPattern (JavaScript syntax, as DocuSign's signing page runs it)
 * and refuses one that could backtrack catastrophically on a value of up to `maxLength`
 * characters, since the server runs it again at Finish:
 * - no backreferences;
 * - no repeated group that itself holds a repeat or an alternation (`(a+)+`, `(a|aa)*`):
 *   those take exponential time on a near-miss;
 * - what remains backtracks at most about length × Π(min(max_i, length) + 1) steps over its
 *   repeats (without the first factor when a leading ^ anchors it), which must stay under
 *   {@link MAX_MATCH_STEPS}: a pattern with several unbounded
 *   repeats is accepted with a smaller maxLength, and the message says which.
 */
export function compileSafePattern(source: string, maxLength: number, what: string): SafePattern {
  const fail = (why: string): never => {
    throw new EsignError('INVALID_VALIDATION_PATTERN', `${what}: ${why}`);
  };
  if (source.length > MAX_PATTERN_LENGTH) fail(`it is longer than ${MAX_PATTERN_LENGTH} characters.`);
  let regex: RegExp;
  try {
    regex = new RegExp(source);
  } catch (err) {
    return fail(`it is not a valid regular expression (${err instanceof Error ? err.message : String(err)}).`);
  }
  const { repeats, topLevelAlternation } = scanRepeats(source, fail);
  // A pattern anchored by a leading ^ is tried at one start position, not at each of length.
  const anchored = source.startsWith('^') && !topLevelAlternation;
  for (const r of repeats) {
    if (r.body?.quantified || r.body?.alternation) {
      fail('a repeated group holds a repetition or an alternation, as in (a+)+ or (a|b)*, which can take exponential time; use a character class such as [ab]* instead.');
    }
  }
  const steps = (n: number) => repeats.reduce((acc, r) => acc * (Math.min(r.max, n) + 1), anchored ? 1 : n);
  if (steps(maxLength) > MAX_MATCH_STEPS) {
    let fits = maxLength;
    while (fits > 1 && steps(fits) > MAX_MATCH_STEPS) fits = Math.floor(fits * 0.9);
    fail(`with ${repeats.length} repetitions it could take too long on a value of ${maxLength} characters; give the tab a maxLength of at most ${fits}, or use fewer repetitions.`);
  }
  return { source, regex };
}
