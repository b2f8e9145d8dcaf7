import assert from 'node:assert/strict';
import { test } from 'node:test';
import { xxhash32 } from './xxhash32.ts';

// Reference values of XXH32 with seed 0 (xxHash's own sanity vectors and the `xxhsum -H0` output).
test('xxhash32 known vectors', () => {
  assert.equal(xxhash32(''), 0x02cc5d05);
  assert.equal(xxhash32('a'), 0x550d7456);
  assert.equal(xxhash32('abc'), 0x32d153ff);
  assert.equal(xxhash32('Nobody inspects the spammish repetition'), 0xe2293b2f);
});
