// An upstream response head (or a plugin's edit of it) that node:http2 cannot send as it is must
// never end the gateway process: before, one HTTP/2 request for a response with a repeated
// single-value field (X-Content-Type-Options, Content-Type, Location...) or HTTP2-Settings threw
// inside the upstream parser's callback, uncaught. The head is sent in its HTTP/2 form (first
// value kept, connection-specific fields dropped), and a head that still cannot be sent is a 502.
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import { Http2ServerResponse } from 'node:http2';
import { test, type TestContext } from 'node:test';
import { listenOnLoopback } from '@signet/kit/testing';
import { h2request, startHttp2Gateway } from './http2-gateway.fixture.ts';

const ok = (fields: string): string => `HTTP/1.1 200 OK\r\nContent-Length: 2\r\n${fields}\r\nok`;
const CANNED: Readonly<Record<string, string>> = {
  '/dupxcto': ok('X-Content-Type-Options: nosniff\r\nX-Content-Type-Options: nosniff\r\n'),
  '/dupct': ok('Content-Type: text/plain\r\nContent-Type: text/html\r\n'),
  '/duplocation': ok('Location: /first\r\nLocation: /second\r\nETag: "a"\r\nETag: "b"\r\n'),
  '/http2s': ok('HTTP2-Settings: AAMAAABkAAQAoAAAAAIAAAAA\r\nX-Kept: yes\r\n'),
  '/cookies': ok('Set-Cookie: a=1\r\nSet-Cookie: b=2\r\n'),
  '/xcto': ok('X-Content-Type-Options: nosniff\r\n'),
  '/plain': ok('Content-Type: text/plain\r\n'),
};

/** An upstream answering each request with the canned response its path names. */
async function cannedUpstream(t: TestContext): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => undefined);
    s.on('data', (d: Buffer) => {
      const path = d.toString('latin1').split(' ')[1] ?? '';
      s.write(CANNED[path.replace(/^\/hardened/, '')] ?? 'HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n');
    });
  });
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return port;
}

const yml = (port: number): string => `_format_version: "3.0"
services:
  - name: canned
    url: http://127.0.0.1:${port}
    routes:
      - { name: plain, paths: [/], strip_path: false }
      - name: hardened
        paths: [/hardened]
        strip_path: false
        plugins: [{ name: response-transformer, config: { append: { headers: ["X-Content-Type-Options:nosniff"] } } }]
`;

test('an upstream head with repeated single-value fields or HTTP2-Settings is sent in its HTTP/2 form: first value kept, connection fields dropped', async (t) => {
  const h2 = await startHttp2Gateway(t, yml(await cannedUpstream(t)));
  const s = h2.session();
  const get = (path: string) => h2request(s, { ':path': path });

  const xcto = await get('/dupxcto');
  assert.equal(xcto.headers[':status'], 200);
  assert.equal(xcto.headers['x-content-type-options'], 'nosniff');
  assert.equal(xcto.body.toString(), 'ok');

  // nginx: "upstream sent duplicate header line ..., ignoring": the first one is what is sent.
  assert.equal((await get('/dupct')).headers['content-type'], 'text/plain');
  const location = await get('/duplocation');
  assert.equal(location.headers.location, '/first');
  assert.equal(location.headers.etag, '"a"');

  const settings = await get('/http2s');
  assert.equal(settings.headers[':status'], 200);
  assert.equal(settings.headers['http2-settings'], undefined);
  assert.equal(settings.headers['x-kept'], 'yes');

  // A field that may repeat keeps every value.
  assert.deepEqual((await get('/cookies')).headers['set-cookie'], ['a=1', 'b=2']);

  // The same from configuration alone: append over an upstream that sends the field already.
  const appended = await get('/hardened/xcto');
  assert.equal(appended.headers[':status'], 200);
  assert.equal(appended.headers['x-content-type-options'], 'nosniff');
  assert.equal((await get('/plain')).body.toString(), 'ok', 'the process still serves');
});

test('a response head that cannot be written over HTTP/2 is answered 502 (upstream) or 500 (the gateway\'s own), and the process serves on', async (t) => {
  const h2 = await startHttp2Gateway(t, yml(await cannedUpstream(t)) + `      - { name: closed, paths: [/closed], plugins: [{ name: request-termination, config: { status_code: 403 } }] }
      - { name: bodykey, paths: [/bodykey], plugins: [{ name: key-auth, config: { key_in_body: true } }] }
`);
  const s = h2.session();
  // Whatever node:http2 might refuse next: its writeHead throws once, for the marked requests.
  const writeHead = Object.getOwnPropertyDescriptor(Http2ServerResponse.prototype, 'writeHead')!;
  let armed = 0;
  Object.defineProperty(Http2ServerResponse.prototype, 'writeHead', {
    ...writeHead,
    value: function (this: Http2ServerResponse, ...args: unknown[]) {
      if (armed > 0 && this.req.headers['x-break'] === 'yes') {
        armed -= 1;
        throw new TypeError('refused by the test');
      }
      return (writeHead.value as (...a: unknown[]) => unknown).apply(this, args);
    },
  });
  t.after(() => Object.defineProperty(Http2ServerResponse.prototype, 'writeHead', writeHead));

  armed = 1;
  const relayed = await h2request(s, { ':path': '/plain', 'x-break': 'yes' });
  assert.equal(relayed.headers[':status'], 502);
  assert.deepEqual(JSON.parse(relayed.body.toString()), { message: 'An invalid response was received from the upstream server', request_id: relayed.headers['x-kong-request-id'] });

  // The gateway's own answer (a plugin's), written while the stream is dispatched.
  armed = 1;
  const own = await h2request(s, { ':path': '/closed', 'x-break': 'yes' });
  assert.equal(own.headers[':status'], 500);
  assert.equal((JSON.parse(own.body.toString()) as { message: string }).message, 'An unexpected error occurred');

  // The same answer written later, once the body a plugin reads has come (a promise's continuation).
  armed = 1;
  const late = await h2request(s, { ':path': '/bodykey', ':method': 'POST', 'content-type': 'application/json', 'x-break': 'yes' }, '{}');
  assert.equal(late.headers[':status'], 500);
  assert.equal((JSON.parse(late.body.toString()) as { message: string }).message, 'An unexpected error occurred');

  armed = 0;
  assert.equal((await h2request(s, { ':path': '/plain' })).body.toString(), 'ok');
});
