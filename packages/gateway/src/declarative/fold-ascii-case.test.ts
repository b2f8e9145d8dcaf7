import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldAsciiCase } from './fold-ascii-case.ts';

/** Deterministic inputs over an alphabet of both cases, digits, class edges and non-ASCII. */
function* inputs(count: number): Generator<string> {
  const alphabet = 'aAbBfFzZkKxX09_-. [\\]^`é\u212a\n';
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  for (let n = 0; n < count; n++) {
    let s = '';
    for (let len = next() % 9; len > 0; len--) s += alphabet[next() % alphabet.length];
    yield s;
  }
}

test('a folded pattern matches what the pattern matches under /i, captures and all', () => {
  const patterns = ['abc', '^v(?<n>\\d)$', '[a-f0-9]+', '[^a-z]', '[A-Z_]+x', '\\x41b', '[\\x41-\\x46]+', 'a|B|c', '(?:Ab){1,2}', '[\\w-]+',
    '^(a|aa)+$', '[-a]', '[a-]', '[]', '[^]', '\\bfoo\\b', 'k', '[0-z]+', '[Z-a]', '[\\]a]', '^(?<x>b)(?:z)$', 'x\\.y', '\\n|\\t', '[\\b]', '\\cJ', 'a(?=b)', '(?<=a)b', '(?!z)a'];
  for (const p of patterns) {
    const folded = foldAsciiCase(p);
    assert.ok(folded !== undefined, p);
    assert.doesNotMatch(folded, /(^|[^\\])\(\?[a-z]*i/, `${p}: no inline flag`);
    const withI = new RegExp(p, 'gi');
    const without = new RegExp(folded, 'g');
    for (const x of inputs(400)) {
      assert.deepEqual([...x.matchAll(without)].map((m) => [m.index, [...m], { ...m.groups }]), [...x.matchAll(withI)].map((m) => [m.index, [...m], { ...m.groups }]), `${p} on ${JSON.stringify(x)}`);
    }
  }
});

test('what cannot be folded safely is left to /i', () => {
  for (const p of ['(a)\\1', '\\k<x>(?<x>a)', '\\p{L}', 'é', '[é]', '\\q', '[\\d-z]', '\\01', '[a']) assert.equal(foldAsciiCase(p), undefined, p);
});
