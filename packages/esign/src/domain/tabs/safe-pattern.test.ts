import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { compileSafePattern, MAX_MATCH_STEPS } from './safe-pattern.ts';

const refused = (pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === 'INVALID_VALIDATION_PATTERN' && pattern.test(e.message);

test('ordinary validation patterns compile and match', () => {
  for (const [source, good, bad] of [
    ['^\\d{5}(-\\d{4})?$', '12345-6789', '1234'],
    ['^[A-Z]{2}\\d{6}$', 'AB123456', 'ab123456'],
    ['^[a-z]+$', 'hello', 'Hello'],
    ['^(?:yes|no)$', 'yes', 'maybe'],
    ['^(?<area>\\d{3})-\\d{4}$', '555-1234', '5551234'],
    ['^(?=.*\\d)[\\w]{4,8}$', 'abc1', 'abcd'],
  ] as const) {
    const { regex } = compileSafePattern(source, 4000, 'textTabs[0].validationPattern');
    assert.ok(regex.test(good), `${source} accepts ${good}`);
    assert.ok(!regex.test(bad), `${source} refuses ${bad}`);
  }
});

test('a pattern that is not a regular expression is refused with the engine\'s reason', () => {
  assert.throws(() => compileSafePattern('^(abc$', 4000, 'textTabs[0].validationPattern'), refused(/textTabs\[0\]\.validationPattern: it is not a valid regular expression \(.*Unterminated group/));
  assert.throws(() => compileSafePattern('a'.repeat(501), 4000, 'v'), refused(/longer than 500/));
});

test('catastrophic forms are refused: nested repetition, repeated alternation, backreferences', () => {
  for (const source of ['^(a+)+$', '(\\w+\\s?)*$', '^(a|aa)*b$', '((ab)*c)+', '(x{2,})*', '^([a-z]*)+$']) {
    assert.throws(() => compileSafePattern(source, 100, 'v'), refused(/repeated group holds a repetition or an alternation/), source);
  }
  // An alternation or an optional part one group deeper is as ambiguous: (a|aa) wrapped once more,
  // or (a?a?)+ (each turn matches a, aa or nothing), take exponential time on a near-miss.
  for (const source of ['^((a|aa))+$', '^(?:(?:a|aa))+b$', '^(a?a?)+$', '^(?:(x|y)z?)*$', '^((?:a|b)c){2,}$', '^(a{0,1}b?)+$']) {
    assert.throws(() => compileSafePattern(source, 100, 'v'), refused(/repeated group holds a repetition or an alternation/), source);
  }
  assert.throws(() => compileSafePattern('^(a)\\1$', 100, 'v'), refused(/backreferences/));
  assert.throws(() => compileSafePattern('^(?<x>a)\\k<x>$', 100, 'v'), refused(/backreferences/));
  // A character class holding ( or | is one atom, not a group.
  assert.doesNotThrow(() => compileSafePattern('^[(|)]+$', 100, 'v'));
});

test('several unbounded repetitions are accepted only under a maxLength that bounds the work, named in the refusal', () => {
  const email = '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$';
  assert.throws(() => compileSafePattern(email, 4000, 'emailTabs[0].validationPattern'), refused(/with 3 repetitions .* maxLength of at most \d+/));
  const fits = Number(/at most (\d+)/.exec((() => {
    try {
      compileSafePattern(email, 4000, 'v');
      return '';
    } catch (e) {
      return (e as Error).message;
    }
  })())![1]);
  assert.ok(fits >= 300 && fits < 464, `the suggested maxLength (${fits}) is usable`);
  assert.doesNotThrow(() => compileSafePattern(email, fits, 'v'));
  // The estimate the bound is made of: Π(min(max, n) + 1) ≤ MAX_MATCH_STEPS when anchored by ^.
  assert.ok((fits + 1) ** 3 <= MAX_MATCH_STEPS);
  // Unanchored, each start position counts too.
  assert.throws(() => compileSafePattern('[a-z]+[0-9]+', 4000, 'v'), refused(/at most/));
});

test('optional parts and alternations in sequence count towards the bound: a?…a?a…a and (a|a)(a|a)… are refused', () => {
  // Each doubles the ways a near-miss is tried (2^k), with no repeat nested anywhere.
  for (const source of [`^${'a?'.repeat(40)}${'a'.repeat(40)}$`, `^${'(?:a|a)'.repeat(40)}b$`, `^${'(?:a|b|c)'.repeat(20)}$`, `${'x|'.repeat(30)}(?:a|b)${'(?:c|d)?'.repeat(25)}`]) {
    assert.throws(() => compileSafePattern(source, 10, 'v'), refused(/optional parts and alternations combine in about [\d.]+e\+\d+ ways/), source);
  }
  // A few are ordinary and stay accepted, their choices counted with the repeats.
  assert.doesNotThrow(() => compileSafePattern('^\\+?\\d{1,3}[- ]?\\(?\\d{3}\\)?[- ]?\\d{3}[- ]?\\d{4}$', 4000, 'v'));
  assert.doesNotThrow(() => compileSafePattern('^(?:Mr|Mrs|Ms|Dr)\\.? [A-Z][a-z]{1,40}$', 4000, 'v'));
  assert.throws(() => compileSafePattern(`^${'(?:a|b)'.repeat(10)}[a-z]+[a-z]+$`, 4000, 'v'), refused(/with 2 repetitions .* maxLength of at most \d+/));
});

test('an accepted pattern at its maxLength answers a worst-case near-miss quickly', () => {
  // Two overlapping unbounded repeats are the polynomial worst case V8 really explores.
  const maxLength = 4000;
  const { regex } = compileSafePattern('^\\d+\\d+x$', maxLength, 'v');
  // This process's CPU time, not the wall clock: other work on the machine does not count
  // (~11 ms here; catastrophic backtracking would take minutes).
  const started = process.cpuUsage();
  assert.equal(regex.test('1'.repeat(maxLength)), false);
  const used = process.cpuUsage(started);
  const ms = (used.user + used.system) / 1000;
  assert.ok(ms < 1000, `took ${ms} ms of CPU`);
});

test('character classes are read as JavaScript reads them: [] and [^] close at once, so nothing hides behind them', () => {
  // A review hid (a+)+ behind a `]` the scanner took as a literal: 40 characters blocked an instance for hours.
  for (const source of ['[]|(a+)+$|]', '[^]|^(a+)+$|]', '[^](a|aa)+]']) {
    assert.throws(() => compileSafePattern(source, 4000, 'v'), refused(/repeated group holds a repetition or an alternation/), source);
  }
  assert.equal(compileSafePattern('^[^]{1,9}$', 100, 'v').regex.test('any]'), true);
  // `[]` matches nothing, so this never matches: the `]` after it is a literal of its own.
  assert.equal(compileSafePattern('^x[]]?$', 100, 'v').regex.test('x'), false);
});
