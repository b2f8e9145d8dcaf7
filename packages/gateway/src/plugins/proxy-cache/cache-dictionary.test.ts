// The memory strategy's bounded store on an injected clock: expiry by the storage TTL, least
// recently used entries evicted to make room, an entry larger than the dictionary not stored.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CacheDictionary, entrySize, type CachedResponse } from './cache-dictionary.ts';

const response = (bytes: number): CachedResponse => ({ status: 200, headers: ['Content-Type', 'text/plain'], body: Buffer.alloc(bytes, 1), timestamp: 0, ttl: 60 });

test('an entry lives for its storage ttl, then is gone', () => {
  const d = new CacheDictionary(10_000);
  assert.equal(d.set('k', response(10), 2, 1_000), true);
  assert.equal(d.get('k', 2_999)?.body.length, 10);
  assert.equal(d.get('k', 3_000), undefined);
  assert.equal(d.bytes, 0, 'the expired entry no longer counts');
});

test('full: the least recently used entries make room; a read counts as a use', () => {
  const one = entrySize('a', response(1000));
  const d = new CacheDictionary(one * 3);
  for (const k of ['a', 'b', 'c']) assert.equal(d.set(k, response(1000), 60, 0), true);
  assert.ok(d.get('a', 1) !== undefined, 'a is now the most recently used');
  d.set('d', response(1000), 60, 2);
  assert.equal(d.get('b', 3), undefined, 'b, least recently used, was evicted');
  for (const k of ['a', 'c', 'd']) assert.ok(d.get(k, 3) !== undefined, `${k} kept`);
  assert.ok(d.bytes <= d.capacity);
});

test('an entry larger than the dictionary is refused and evicts nothing', () => {
  const d = new CacheDictionary(4096);
  d.set('small', response(100), 60, 0);
  assert.equal(d.set('huge', response(5000), 60, 0), false);
  assert.ok(d.get('small', 1) !== undefined);
  assert.equal(d.get('huge', 1), undefined);
});

test('replacing, deleting and flushing keep the byte count exact', () => {
  const d = new CacheDictionary(100_000);
  d.set('k', response(100), 60, 0);
  d.set('k', response(300), 60, 0);
  assert.equal(d.bytes, entrySize('k', response(300)));
  assert.equal(d.delete('k'), true);
  assert.equal(d.delete('k'), false);
  assert.equal(d.bytes, 0);
  d.set('x', response(1), 60, 0);
  d.flush();
  assert.equal(d.bytes, 0);
  assert.equal(d.get('x', 0), undefined);
});
