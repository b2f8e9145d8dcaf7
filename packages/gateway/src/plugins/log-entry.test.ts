// The proxy's log entry: what it reports matches nginx's variables, and node's request header
// table (built by node on first access) is built only when a logger reads the headers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import type { RequestDone } from '../proxy/proxy-hooks.ts';
import { RequestLogEntry, requestHeadLength } from './log-entry.ts';

const done: RequestDone = {
  requestId: 'r1', method: 'GET', uri: '/a?b=1', clientIp: '127.0.0.1', status: 200, source: 'upstream', service: undefined, route: undefined,
  upstreamAddress: '127.0.0.1:80', proxyLatencyMs: 1, upstreamLatencyMs: 2, totalMs: 3,
};

function request(): { req: IncomingMessage; reads: () => number } {
  let reads = 0;
  const req = {
    rawHeaders: ['Host', 'example.test', 'Origin', 'https://app.example.test'],
    get headers() {
      reads++;
      return { host: 'example.test', origin: 'https://app.example.test' };
    },
  };
  return { req: req as unknown as IncomingMessage, reads: () => reads };
}

test('RequestLogEntry: sizes and the upstream URI without touching the header table; the table when read', () => {
  const { req, reads } = request();
  const entry = new RequestLogEntry(done, req, 5, 'http', ['Content-Length', '2'], 40, 'GET /up/a?b=1 HTTP/1.1\r\n', 200, 10);
  assert.equal(entry.requestSize, requestHeadLength('GET', '/a?b=1', req.rawHeaders) + 5);
  assert.equal(entry.requestSize, 'GET /a?b=1 HTTP/1.1\r\n'.length + 'Host: example.test\r\n'.length + 'Origin: https://app.example.test\r\n'.length + 2 + 5);
  assert.equal(entry.upstreamUri, '/up/a?b=1');
  assert.equal(entry.responseSize, 40);
  assert.equal(reads(), 0);
  assert.equal(entry.requestHeaders.origin, 'https://app.example.test');
  assert.equal(reads(), 1);
});

test('RequestLogEntry: a request the gateway answered itself has no upstream URI', () => {
  const { req } = request();
  const entry = new RequestLogEntry(done, req, 0, 'https', [], 0, undefined, undefined, 10);
  assert.equal(entry.upstreamUri, undefined);
  assert.equal(entry.upstreamStatus, undefined);
  assert.equal(entry.scheme, 'https');
});
