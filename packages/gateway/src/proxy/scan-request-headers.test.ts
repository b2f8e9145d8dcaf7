import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scanRequestHeaders } from './scan-request-headers.ts';

test('scanRequestHeaders: reads what the gateway sets, passes the rest in order', () => {
  const scanned = scanRequestHeaders([
    'Host', 'api.test:8000',
    'Accept', 'application/json',
    'X-Forwarded-For', '10.0.0.1',
    'x-forwarded-for', '10.0.0.2',
    'Via', '1.0 edge',
    'Content-Length', '12',
    'Connection', 'keep-alive, X-Secret',
    'X-Secret', 'hop',
    'Cookie', 'a=1',
    'Cookie', 'b=2',
    'X-Real-IP', 'spoofed',
    'Expect', '100-continue',
  ]);
  assert.deepEqual(scanned, {
    host: 'api.test:8000',
    forwardedFor: '10.0.0.1, 10.0.0.2',
    via: '1.0 edge',
    passthrough: 'Accept: application/json\r\nCookie: a=1\r\nCookie: b=2\r\n',
    contentLength: 12,
    chunked: false,
    names: ['host', 'accept', 'x-forwarded-for', 'x-forwarded-for', 'via', 'content-length', 'connection', 'x-secret', 'cookie', 'cookie', 'x-real-ip', 'expect'],
    hopByHop: ['x-secret'],
  });
});

test('scanRequestHeaders: chunked framing and no host', () => {
  const scanned = scanRequestHeaders(['Transfer-Encoding', 'gzip, chunked', 'TE', 'trailers', 'Upgrade', 'websocket']);
  assert.equal(scanned.chunked, true);
  assert.equal(scanned.contentLength, -1);
  assert.equal(scanned.host, undefined);
  assert.equal(scanned.passthrough, '');
});
