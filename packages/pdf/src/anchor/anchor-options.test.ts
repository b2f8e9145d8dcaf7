import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toAnchorSearch } from './anchor-options.ts';
import { PdfError } from '../pdf-error.ts';

test('defaults: pixels, no offset, case-insensitive, not whole-word, left', () => {
  assert.deepEqual(toAnchorSearch({ anchorString: '/sn1/' }), {
    anchorString: '/sn1/', xOffset: 0, yOffset: 0, caseSensitive: false, matchWholeWord: false,
    alignRight: false, allowWhiteSpaceInCharacters: false,
  });
});

test('offsets convert to points in every unit, from strings or numbers', () => {
  const cases: [string, string | number, number][] = [
    ['pixels', '10', 10], ['inches', 1, 72], ['inches', '0.5', 36], ['mms', '25.4', 72], ['cms', 2.54, 72],
    ['INCHES', '-1', -72], ['', 3, 3],
  ];
  for (const [anchorUnits, value, points] of cases) {
    const s = toAnchorSearch({ anchorString: 'x', anchorUnits, anchorXOffset: value, anchorYOffset: value });
    assert.ok(Math.abs(s.xOffset - points) < 1e-9, `${anchorUnits} ${value}`);
    assert.ok(Math.abs(s.yOffset - points) < 1e-9, `${anchorUnits} ${value}`);
  }
});

test('wire flags are strings or booleans', () => {
  const s = toAnchorSearch({ anchorString: 'x', anchorCaseSensitive: 'TRUE', anchorMatchWholeWord: true, anchorHorizontalAlignment: 'Right', anchorAllowWhiteSpaceInCharacters: '1' });
  assert.equal(s.caseSensitive, true);
  assert.equal(s.matchWholeWord, true);
  assert.equal(s.alignRight, true);
  assert.equal(s.allowWhiteSpaceInCharacters, true);
});

test('bad options are INVALID_ANCHOR naming the field', () => {
  const bad: [Parameters<typeof toAnchorSearch>[0], RegExp][] = [
    [{ anchorString: '  ' }, /anchorString/],
    [{ anchorString: 'x', anchorUnits: 'points' }, /anchorUnits/],
    [{ anchorString: 'x', anchorUnits: 'toString' }, /anchorUnits/],
    [{ anchorString: 'x', anchorXOffset: 'abc' }, /anchorXOffset/],
    [{ anchorString: 'x', anchorYOffset: 'Infinity' }, /anchorYOffset/],
    [{ anchorString: 'x', anchorCaseSensitive: 'yes' }, /anchorCaseSensitive/],
    [{ anchorString: 'x', anchorHorizontalAlignment: 'center' }, /anchorHorizontalAlignment/],
  ];
  for (const [options, message] of bad) {
    assert.throws(() => toAnchorSearch(options), (e: unknown) => e instanceof PdfError && e.code === 'INVALID_ANCHOR' && message.test(e.message));
  }
});
