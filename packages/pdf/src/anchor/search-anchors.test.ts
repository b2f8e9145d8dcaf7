import { test } from 'node:test';
import assert from 'node:assert/strict';
import { toAnchorSearch, type AnchorOptions } from './anchor-options.ts';
import { ANCHOR_SEARCH_BUDGET, newSearchBudget, searchAnchors } from './search-anchors.ts';
import { PdfError } from '../pdf-error.ts';
import type { DocumentText, TextRun } from './page-text.ts';

// A Letter page; runs in 10 pt type whose glyphs are 5 pt wide, ascent 0.8 (top = baseline + 8).
const PAGE = { width: 612, height: 792 };
function run(str: string, x: number, y: number, eol = false): TextRun {
  return { str, x, y, width: str.length * 5, height: 10, ascent: 0.8, eol };
}
function doc(documentIndex: number, ...pages: TextRun[][]): DocumentText {
  return { documentIndex, pages: pages.map((runs, i) => ({ pageNumber: i + 1, ...PAGE, runs })) };
}
function find(docs: DocumentText[], options: Partial<AnchorOptions> & { anchorString: string }) {
  return searchAnchors(docs, toAnchorSearch(options));
}

test('an anchor inside one run: box and tab at its top-left in top-left coordinates', () => {
  const [m, ...rest] = find([doc(0, [run('Signature: /sn1/ here', 100, 700)])], { anchorString: '/sn1/' });
  assert.equal(rest.length, 0);
  // "/sn1/" starts at char 11: x = 100 + 11*5; top = 792 - (700 + 8).
  assert.deepEqual(m, {
    documentIndex: 0, pageNumber: 1, x: 155, y: 84, anchorX: 155, anchorY: 84, width: 25, height: 10,
    pageWidth: 612, pageHeight: 792,
  });
});

test('an anchor split across runs on one line is found whole', () => {
  const runs = [run('Sign: /s', 100, 500), run('n1', 140, 500), run('/ end', 150, 500)];
  const [m] = find([doc(0, runs)], { anchorString: '/sn1/' });
  assert.ok(m);
  assert.equal(m.anchorX, 130);
  assert.equal(m.width, 25);
});

test('a visible gap between runs reads as a space, so it does not join words', () => {
  const runs = [run('/sn', 100, 500), run('1/', 200, 500)];
  assert.equal(find([doc(0, runs)], { anchorString: '/sn1/' }).length, 0);
  assert.equal(find([doc(0, runs)], { anchorString: '/sn 1/' }).length, 1);
});

test('an anchor wrapped onto the next line is found; its tab stays where it starts', () => {
  const runs = [run('text /sn', 100, 500, true), run('1/ more', 72, 486)];
  const [m] = find([doc(0, runs)], { anchorString: '/sn1/' });
  assert.ok(m);
  assert.equal(m.anchorX, 125);
  assert.equal(m.anchorY, 792 - 508);
  assert.equal(m.width, 15);
});

test('several matches on several pages of several documents, one tab each, in order', () => {
  const docs = [
    doc(0, [run('/sn1/ and /sn1/', 50, 600)], [run('nothing here', 50, 600)], [run('/SN1/', 60, 100)]),
    doc(1, [run('x /sn1/', 70, 300)]),
  ];
  const hits = find(docs, { anchorString: '/sn1/' });
  assert.deepEqual(hits.map((h) => [h.documentIndex, h.pageNumber, h.anchorX]), [[0, 1, 50], [0, 1, 100], [0, 3, 60], [1, 1, 80]]);
});

test('anchorCaseSensitive', () => {
  const docs = [doc(0, [run('Sign Here and sign here', 50, 600)])];
  assert.equal(find(docs, { anchorString: 'sign here' }).length, 2);
  assert.equal(find(docs, { anchorString: 'sign here', anchorCaseSensitive: 'true' }).length, 1);
  assert.equal(find(docs, { anchorString: 'sign here', anchorCaseSensitive: 'true' })[0]!.anchorX, 50 + 14 * 5);
});

test('anchorMatchWholeWord: "man" is not found in "manpower"', () => {
  const docs = [doc(0, [run('manpower man', 50, 600)])];
  assert.equal(find(docs, { anchorString: 'man' }).length, 2);
  const whole = find(docs, { anchorString: 'man', anchorMatchWholeWord: true });
  assert.deepEqual(whole.map((m) => m.anchorX), [50 + 9 * 5]);
  // Punctuation anchors have no word edge of their own to check.
  assert.equal(find([doc(0, [run('a/sn1/b', 50, 600)])], { anchorString: '/sn1/', anchorMatchWholeWord: true }).length, 1);
  assert.equal(find([doc(0, [run('xsn1 sn1', 50, 600)])], { anchorString: 'sn1', anchorMatchWholeWord: true }).length, 1);
});

test('offsets in each unit move the tab right and down; the anchor box stays', () => {
  const docs = [doc(0, [run('/sn1/', 100, 700)])];
  const base = { x: 100, y: 84 };
  const cases: [string, string, string, number, number][] = [
    ['pixels', '20', '-10', 20, -10],
    ['inches', '1', '0.5', 72, 36],
    ['mms', '10', '5', 720 / 25.4, 360 / 25.4],
    ['cms', '1', '-1', 72 / 2.54, -72 / 2.54],
  ];
  for (const [anchorUnits, anchorXOffset, anchorYOffset, dx, dy] of cases) {
    const [m] = find(docs, { anchorString: '/sn1/', anchorUnits, anchorXOffset, anchorYOffset });
    assert.ok(m);
    assert.ok(Math.abs(m.x - (base.x + dx)) < 1e-9, anchorUnits);
    assert.ok(Math.abs(m.y - (base.y + dy)) < 1e-9, anchorUnits);
    assert.equal(m.anchorX, base.x);
  }
});

test('anchorHorizontalAlignment right starts the tab at the end of the anchor', () => {
  const [m] = find([doc(0, [run('/sn1/', 100, 700)])], { anchorString: '/sn1/', anchorHorizontalAlignment: 'right', anchorXOffset: '2' });
  assert.equal(m!.x, 127);
});

test('whitespace in the anchor matches any whitespace; allowWhiteSpace lets spaces sit inside', () => {
  const docs = [doc(0, [run('Please  sign   here', 50, 600)])];
  assert.equal(find(docs, { anchorString: 'Please sign here' }).length, 1);
  const spaced = [doc(0, [run('s i g n', 50, 600)])];
  assert.equal(find(spaced, { anchorString: 'sign' }).length, 0);
  assert.equal(find(spaced, { anchorString: 'sign', anchorAllowWhiteSpaceInCharacters: true }).length, 1);
});

test('matches do not overlap and an absent anchor finds nothing', () => {
  assert.equal(find([doc(0, [run('aaaa', 50, 600)])], { anchorString: 'aa' }).length, 2);
  assert.deepEqual(find([doc(0, [run('nothing', 50, 600)])], { anchorString: '/zz/' }), []);
});

test('a search past its budget is refused, not run: a page of 300,000 a\'s and an anchor of 498 a\'s and a b', () => {
  // A 1.4 KB PDF holds such a page; the search compared ~150 million characters on the event loop.
  const page = doc(0, [run('a'.repeat(300_000), 0, 700)]);
  assert.throws(() => find([page], { anchorString: `${'a'.repeat(498)}b` }), (e: unknown) => e instanceof PdfError && e.code === 'INVALID_ANCHOR' && /would take too long/.test(e.message));
  // Anchors that share a budget share the bound: an envelope's many anchors cannot multiply it.
  const budget = newSearchBudget();
  const search = (anchorString: string) => searchAnchors([page], toAnchorSearch({ anchorString }), budget);
  assert.equal(search('b').length, 0, 'no place starts with b: nothing compared');
  assert.equal(budget.left, ANCHOR_SEARCH_BUDGET);
  assert.throws(() => {
    for (let i = 0; i < 1000; i++) search(`${'a'.repeat(100)}${i}`);
  }, (e: unknown) => e instanceof PdfError && e.code === 'INVALID_ANCHOR');
});

test('ordinary anchors are tried only where their first character is, with the same matches as before', () => {
  const runs = [run('Sign here: /sn1/ and /SN1/ then /sn1/', 100, 700), run('/s', 100, 600), run('n1/', 110, 600)];
  assert.equal(find([doc(0, runs)], { anchorString: '/sn1/' }).length, 4);
  assert.equal(find([doc(0, runs)], { anchorString: '/sn1/', anchorCaseSensitive: true }).length, 3);
  const budget = newSearchBudget();
  searchAnchors([doc(0, runs)], toAnchorSearch({ anchorString: '/sn1/' }), budget);
  // Four places start with "/" on the page ("/sn1/" twice, "/SN1/", the split one) plus the closing slashes that start no match.
  assert.ok(ANCHOR_SEARCH_BUDGET - budget.left <= 8 * 5, String(ANCHOR_SEARCH_BUDGET - budget.left));
});
