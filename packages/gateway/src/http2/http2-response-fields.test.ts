import assert from 'node:assert/strict';
import { test } from 'node:test';
import { http2ResponseFields } from './http2-response-fields.ts';

test('pairs: connection-specific fields dropped, a repeated single-value field keeps its first value, others repeat', () => {
  assert.deepEqual(http2ResponseFields([
    'Content-Type', 'text/plain', 'Connection', 'close', 'HTTP2-Settings', 'AAMA', 'TE', 'trailers', 'Upgrade', 'h2c',
    'content-type', 'text/html', 'X-Content-Type-Options', 'nosniff', 'X-Content-Type-Options', 'nosniff',
    'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Location', '/a', 'location', '/b',
  ]), ['Content-Type', 'text/plain', 'X-Content-Type-Options', 'nosniff', 'Set-Cookie', 'a=1', 'Set-Cookie', 'b=2', 'Location', '/a']);
});

test('an object: connection fields dropped, an array value of a single-value field cut to its first, two spellings count once', () => {
  assert.deepEqual(http2ResponseFields({
    'Content-Type': ['a', 'b'], 'content-type': 'c', Connection: 'close', 'Keep-Alive': 'timeout=5', 'Set-Cookie': ['x', 'y'], ETag: '"e"',
  }), { 'Content-Type': 'a', 'Set-Cookie': ['x', 'y'], ETag: '"e"' });
  assert.equal(http2ResponseFields(undefined), undefined);
});
