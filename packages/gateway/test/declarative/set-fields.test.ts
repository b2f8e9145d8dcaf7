// Set fields (tags, hosts, methods...) drop duplicates as Kong's make_set does, in one pass: a
// filter+findIndex over the list was quadratic, and 16,000 tags in a POST /config body stalled
// the admin process for 33 s. The pass is measured by its work (JSON.stringify calls), not by time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from '../../src/declarative/index.ts';

const withTags = (tags: readonly string[]): string =>
  JSON.stringify({ _format_version: '3.0', services: [{ name: 's', host: 'example.test', tags }] });

test('set fields: duplicates dropped, first occurrences kept in order', () => {
  const snapshot = parseDeclarativeConfig(withTags(['b', 'a', 'b', 'c', 'a']));
  assert.deepEqual(snapshot.services[0]?.tags, ['b', 'a', 'c']);
});

test('set fields: de-duplication stringifies each element a bounded number of times (linear, not quadratic)', () => {
  const n = 2000;
  const tags = Array.from({ length: n }, (_, i) => `tag-${i}`);
  const text = withTags(tags);
  const original = JSON.stringify;
  let calls = 0;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    calls++;
    return original(...args);
  }) as typeof JSON.stringify;
  try {
    parseDeclarativeConfig(text);
  } finally {
    JSON.stringify = original;
  }
  // The old pass made about n² calls (4,000,000 here).
  assert.ok(calls < 10 * n, `${calls} JSON.stringify calls for ${n} tags`);
});

test('set fields: 50,000 distinct tags (and their duplicates) parse', () => {
  const tags = Array.from({ length: 50_000 }, (_, i) => `t${i}`);
  const snapshot = parseDeclarativeConfig(withTags([...tags, ...tags.slice(0, 1000)]));
  assert.deepEqual(snapshot.services[0]?.tags, tags);
});
