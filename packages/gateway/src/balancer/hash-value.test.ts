import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashValueFor, type HashRequest, type HashSettings } from './hash-value.ts';

const none: HashSettings = {
  hash_on: 'none', hash_fallback: 'none', hash_on_header: null, hash_fallback_header: null,
  hash_on_cookie: null, hash_on_cookie_path: '/', hash_on_query_arg: null, hash_fallback_query_arg: null,
  hash_on_uri_capture: null, hash_fallback_uri_capture: null,
};
const req = (over: Partial<HashRequest> = {}): HashRequest => ({ clientIp: '127.0.0.1', headers: {}, path: '/', query: '', ...over });
const value = (s: Partial<HashSettings>, r: Partial<HashRequest>) => hashValueFor({ ...none, ...s }, req(r)).value;

// Kong's spec/02-integration/05-proxy/10-balancer/03-consistent-hashing_spec.lua.
test('10-12. header: its value; missing hashes ""; repeated ones joined with ", "', () => {
  const s = { hash_on: 'header', hash_on_header: 'HashMe' } as const;
  assert.equal(value(s, { headers: { hashme: 'just a value' } }), 'just a value');
  assert.equal(value(s, {}), '');
  assert.equal(value(s, { headers: { hashme: ['1st value', '2nd value'] } }), '1st value, 2nd value');
  assert.equal(value({ ...s, hash_fallback: 'header', hash_fallback_header: 'other' }, { headers: { other: 'x' } }), 'x');
});

test('13. cookie: the value when sent; otherwise a uuid and the Set-Cookie Kong sends', () => {
  const s = { ...none, hash_on: 'cookie', hash_on_cookie: 'hashme', hash_on_cookie_path: '/' } as const;
  assert.deepEqual(hashValueFor(s, req({ headers: { cookie: 'a=1; hashme=abc; b=2' } })), { value: 'abc' });
  const fresh = hashValueFor(s, req());
  assert.match(fresh.value, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  assert.equal(fresh.setCookie, `hashme=${fresh.value}; Path=/; Same-Site=Lax; HttpOnly`);
  assert.equal(hashValueFor({ ...s, hash_on_cookie_path: '/app' }, req()).setCookie?.endsWith('; Path=/app; Same-Site=Lax; HttpOnly'), true);
});

test('14. query_arg values (Kong table) and fallback', () => {
  const s = { hash_on: 'query_arg', hash_on_query_arg: 'hashme' } as const;
  assert.equal(value(s, { query: 'hashme=123' }), '123');
  assert.equal(value(s, { query: '' }), '');
  assert.equal(value(s, { query: 'hashme' }), 'true');
  const foo = { hash_on: 'query_arg', hash_on_query_arg: 'foo' } as const;
  assert.equal(value(foo, { query: 'foo=' }), '');
  assert.equal(value(foo, { query: 'foo=b&foo=a&foo=c' }), 'a,b,c');
  assert.equal(value(foo, { query: 'foo=s&foo&foo=1&foo=' }), ',1,s,true');
  assert.equal(value(foo, { query: 'foo&foo&' }), 'true,true');
  assert.equal(value(foo, { query: 'foo=a%20b+c' }), 'a b c');
  const fb = { hash_on: 'query_arg', hash_on_query_arg: 'absent', hash_fallback: 'query_arg', hash_fallback_query_arg: 'fallback' } as const;
  assert.equal(value(fb, { query: 'fallback=123' }), '123');
});

test('15. path: nginx $uri (decoded, normalised, no query); uri_capture by name or number, with fallback', () => {
  const p = { hash_on: 'path' } as const;
  assert.equal(value(p, { path: '/my-path', query: 'a=1&b=2' }), '/my-path');
  assert.equal(value(p, { path: '/root/../%2e/root///././%2F.subdir/../.subdir/./%28%29' }), '/root/.subdir/()');
  const captures = { namespace: 'foo', id: '123', 1: 'foo', 2: '123' };
  assert.equal(value({ hash_on: 'uri_capture', hash_on_uri_capture: 'namespace' }, { captures }), 'foo');
  assert.equal(value({ hash_on: 'uri_capture', hash_on_uri_capture: 'id' }, { captures }), '123');
  assert.equal(value({ hash_on: 'uri_capture', hash_on_uri_capture: '2' }, { captures }), '123');
  assert.equal(value({ hash_on: 'uri_capture', hash_on_uri_capture: 'id' }, {}), '');
  const fb = { hash_on: 'uri_capture', hash_on_uri_capture: 'id', hash_fallback: 'query_arg', hash_fallback_query_arg: 'test' } as const;
  assert.equal(value(fb, { query: 'test=1' }), '1');
});

test('ip: the client address, IPv4-mapped IPv6 unwrapped; consumer: its id, else the fallback', () => {
  assert.equal(value({ hash_on: 'ip' }, { clientIp: '::ffff:10.1.2.3' }), '10.1.2.3');
  assert.equal(value({ hash_on: 'ip' }, { clientIp: '::1' }), '::1');
  assert.equal(value({ hash_on: 'consumer', hash_fallback: 'ip' }, { clientIp: '10.0.0.9' }), '10.0.0.9');
  assert.equal(value({ hash_on: 'consumer', hash_fallback: 'ip' }, { clientIp: '10.0.0.9', consumerId: 'c-1' }), 'c-1');
});

test('a stream connection (no headers, path or query): only ip gives a value, cookie none', () => {
  const stream = { clientIp: '10.0.0.9' };
  assert.equal(hashValueFor({ ...none, hash_on: 'ip' }, stream).value, '10.0.0.9');
  assert.deepEqual(hashValueFor({ ...none, hash_on: 'cookie', hash_on_cookie: 'c' }, stream), { value: '' });
  assert.deepEqual(hashValueFor({ ...none, hash_on: 'path', hash_fallback: 'cookie', hash_on_cookie: 'c' }, stream), { value: '' });
  assert.equal(hashValueFor({ ...none, hash_on: 'header', hash_on_header: 'x', hash_fallback: 'query_arg', hash_fallback_query_arg: 'q' }, stream).value, '');
});
