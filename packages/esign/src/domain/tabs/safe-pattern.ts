import { setFlagsFromString } from 'node:v8';
import { EsignError } from '../../errors.ts';

// The scanner below bounds what a pattern may cost, and V8 backs it up: a match that backtracks
// too long is run again in V8's linear-time engine (process-wide; it cannot run backreferences,
// which the scanner refuses anyway).
setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');

/** A validationPattern that compiled and passed the backtracking bound. */
export type SafePattern = { readonly source: string; readonly regex: RegExp };

export const MAX_PATTERN_LENGTH = 500;
/**
 * The most backtracking steps a match may take in the worst case, as estimated below: about a
 * tenth of a second of V8's engine, spent at most once per tab at Finish.
 */
export const MAX_MATCH_STEPS = 1e8;

type GroupBody = { quantified: boolean; alternation: boolean; branches: number };
type Repeat = { max: number; body: GroupBody | undefined };

/**
 * The repeats of a pattern (a quantifier with an upper bound above 1, and what it applies to)
 * and its choices (each optional part, 2 ways; each alternation, one way per branch), read by a
 * small scanner of JavaScript regex syntax; throws on a backreference, which makes matching
 * exponential whatever the bound.
 */
function scanRepeats(source: string, fail: (why: string) => never): { repeats: Repeat[]; choices: number[]; topLevelAlternation: boolean } {
  const repeats: Repeat[] = [];
  const choices: number[] = [];
  let topLevelBranches = 1;
  // Per open group: does its body, at any depth, hold a repeat or an alternation? Every open
  // group is marked, not only the innermost: ((a|aa))+ is as ambiguous as (a|aa)+.
  const groups: GroupBody[] = [];
  let i = 0;
  const markQuantified = () => groups.forEach((g) => (g.quantified = true));
  const markAlternation = () => groups.forEach((g) => (g.alternation = true));
  while (i < source.length) {
    const c = source[i]!;
    let atomGroup: GroupBody | undefined;
    if (c === '\\') {
      const next = source[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k') fail('backreferences (\\1, \\k<name>) are not allowed: they make matching take exponential time.');
      i += 2;
    } else if (c === '[') {
      // A character class is one atom; skip to its unescaped closing bracket. A `]` right after
      // `[` or `[^` closes it, as JavaScript reads it (`[]` matches nothing, `[^]` anything),
      // unlike PCRE: reading it as a literal hid `(a+)+` in `[]|(a+)+$|]` from this scanner.
      i++;
      if (source[i] === '^') i++;
      while (i < source.length && source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
    } else if (c === '(') {
      groups.push({ quantified: false, alternation: false, branches: 1 });
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
      if (atomGroup && atomGroup.branches > 1) choices.push(atomGroup.branches);
      i++;
    } else if (c === '|') {
      const g = groups[groups.length - 1];
      if (g) {
        g.branches++;
        markAlternation();
      } else topLevelBranches++;
      i++;
      continue;
    } else {
      i++;
    }
    // A quantifier after the atom just read.
    const q = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(source.slice(i));
    if (q) {
      const min = q[1] === '+' ? 1 : q[1] ? 0 : Number(q[2]);
      const max = q[1] === '?' ? 1 : q[1] ? Infinity : q[3] === undefined ? Number(q[2]) : q[4] === '' ? Infinity : Number(q[4]);
      if (max > 1) repeats.push({ max, body: atomGroup });
      else if (max > min) choices.push(2);
      // An optional part counts as a repetition for the groups around it: (a?a?)+ matches a run
      // of a's in exponentially many ways, like (a|aa)+.
      if (max > min) markQuantified();
      i += q[0].length;
    }
  }
  if (topLevelBranches > 1) choices.push(topLevelBranches);
  return { repeats, choices, topLevelAlternation: topLevelBranches > 1 };
}

/**
 * Compiles a sender's validationPattern (JavaScript syntax, as DocuSign's signing page runs it)
 * and refuses one that could backtrack catastrophically on a value of up to `maxLength`
 * characters, since the server runs it again at Finish:
 * - no backreferences;
 * - no repeated group that itself holds a repeat or an alternation (`(a+)+`, `(a|aa)*`):
 *   those take exponential time on a near-miss;
 * - what remains backtracks at most about length × Π(min(max_i, length) + 1) × Π choices steps
 *   over its repeats and choices (an optional part counts 2, an alternation its branches:
 *   a?a?…a?aa…a and (a|a)(a|a)… take 2^k steps without any nested repeat; without the first
 *   factor when a leading ^ anchors it), which must stay under {@link MAX_MATCH_STEPS}: a
 *   pattern with several unbounded repeats is accepted with a smaller maxLength, and the message
 *   says which.
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
  const { repeats, choices, topLevelAlternation } = scanRepeats(source, fail);
  // A pattern anchored by a leading ^ is tried at one start position, not at each of length.
  const anchored = source.startsWith('^') && !topLevelAlternation;
  for (const r of repeats) {
    if (r.body?.quantified || r.body?.alternation) {
      fail('a repeated group holds a repetition or an alternation, as in (a+)+ or (a|b)*, which can take exponential time; use a character class such as [ab]* instead.');
    }
  }
  const ways = choices.reduce((acc, c) => acc * c, 1);
  const steps = (n: number) => repeats.reduce((acc, r) => acc * (Math.min(r.max, n) + 1), (anchored ? 1 : n) * ways);
  if (steps(1) > MAX_MATCH_STEPS) {
    fail(`its repetitions, optional parts and alternations combine in about ${steps(1).toExponential(1)} ways even on one character, which could take too long; use fewer.`);
  }
  if (steps(maxLength) > MAX_MATCH_STEPS) {
    let fits = maxLength;
    while (fits > 1 && steps(fits) > MAX_MATCH_STEPS) fits = Math.floor(fits * 0.9);
    fail(`with ${repeats.length} repetitions it could take too long on a value of ${maxLength} characters; give the tab a maxLength of at most ${fits}, or use fewer repetitions.`);
  }
  return { source, regex };
}
