// Kong's spec/03-plugins/31-proxy-cache/05-cache_key_spec.lua, case for case.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { buildCacheKey, headersKey, paramsKey, prefixUuid, type VaryValue } from './cache-key.ts';

const args = (o: Record<string, VaryValue>): Map<string, VaryValue> => new Map(Object.entries(o));
const lookup = (o: Record<string, VaryValue>) => (name: string): VaryValue => o[name];

test('prefix_uuid', () => {
  const [c1, c2, r1, r2] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  assert.notEqual(prefixUuid(c1, r1), prefixUuid(c1, r2), 'a consumer on different routes');
  assert.notEqual(prefixUuid(c1, r1), prefixUuid(c2, r1), 'different consumers on a route');
  assert.equal(prefixUuid(undefined, r1), prefixUuid(undefined, r1), 'a route with no consumer');
  assert.notEqual(prefixUuid(undefined, r1), prefixUuid(c1, r1), 'a consumer-specific prefix');
  assert.equal(prefixUuid(undefined, undefined), 'default');
  assert.equal(prefixUuid(c1, undefined), 'default', 'only a consumer');
  assert.notEqual(prefixUuid(undefined, r1), 'default');
  assert.equal(prefixUuid(c1, r1), `${c1}:${r1}`);
});

test('params_key', () => {
  assert.equal(paramsKey(args({ a: '1', b: '2' }), null), 'a=1:b=2', 'defaults to all');
  assert.equal(paramsKey(args({}), null), '', 'empty query string');
  assert.equal(paramsKey(args({}), ['a']), '', 'empty query string with vary_query_params');
  for (let i = 0; i < 20; i++) {
    const s1 = `a${randomUUID()}`;
    const s2 = `b${randomUUID()}`;
    assert.equal(paramsKey(args({ [s2]: '2', [s1]: '1' }), null), `${s1}=1:${s2}=2`, 'sorts the arguments');
  }
  assert.equal(paramsKey(args({ a: '1', b: '2' }), ['a']), 'a=1', 'only the vary params');
  assert.equal(paramsKey(args({ a: ['1', '2'] }), ['a']), 'a=1,2', 'repeated params');
  assert.equal(paramsKey(args({ a: ['2', '1'] }), ['a']), 'a=1,2', 'repeated params, sorted');
  assert.equal(paramsKey(args({ a: ['1', '2'], b: '2' }), ['a', 'b', 'c']), 'a=1,2:b=2', 'params not in the request are left out');
  assert.equal(paramsKey(args({ a: true, b: true }), null), 'a:b', 'a bare argument is its name');
});

test('headers_key', () => {
  assert.equal(headersKey(lookup({ a: '1', b: '2' }), null), '', 'defaults to none');
  assert.equal(headersKey(lookup({ a: '1', b: '2' }), ['a']), 'a=1', 'only the vary headers');
  assert.equal(headersKey(lookup({ a: ['1', '2'] }), ['a']), 'a=1,2');
  assert.equal(headersKey(lookup({ a: ['2', '1'] }), ['a']), 'a=1,2');
  assert.equal(headersKey(lookup({ a: ['1', '2'], b: '2' }), ['a', 'b', 'c']), 'a=1,2:b=2');
});

test('build_cache_key: sha256 hex of prefix|method|uri|params|headers', () => {
  // `echo -n 'default|GET|GET /get HTTP/1.1||' | sha256sum`, as Kong's sha256_hex gives it.
  assert.equal(buildCacheKey('default', 'GET', 'GET /get HTTP/1.1', '', ''), 'ff069ce619062d5b4eeb7a66c596f726a12bf5ed3ac61831568f760a3b871d17');
  assert.match(buildCacheKey('r', 'GET', 'GET /get', 'a=1', ''), /^[0-9a-f]{64}$/);
});
