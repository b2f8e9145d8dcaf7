// The lean HTTP/1.1 leg's own behaviours, beyond what the proxy suites and the differential
// test check through the gateway: deadlines (408 for a slow head or body, idle keep-alive
// closed), pipelined answers in order while the first is slow, a handler that throws, the
// graceful drain, and versions other than HTTP/1.x. Real sockets on 127.0.0.1.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer, type Socket } from 'node:net';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { LeanHttp1, type LeanHandler, type LeanTimeouts } from '../../src/http1/index.ts';
import { buildGateway } from '../../src/build-gateway.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { startUpstream, TEST_CONFIG } from '../proxy/proxy.fixture.ts';

async function serveLean(t: TestContext, handler: LeanHandler, timeouts?: LeanTimeouts): Promise<{ port: number; side: LeanHttp1 }> {
  const side = new LeanHttp1(handler, timeouts);
  const server = createServer(side.serve);
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    side.closeAllConnections();
    server.close(() => resolve());
  }));
  return { port, side };
}

/** A raw client: what it has read so far, and whether the server closed. */
function rawClient(port: number): { socket: Socket; text: () => string; closed: () => boolean } {
  const socket = connect(port, '127.0.0.1');
  let text = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  return { socket, text: () => text, closed: () => closed };
}

const hello: LeanHandler = (req, res) => {
  res.writeHead(200, ['Content-Type', 'text/plain', 'Content-Length', String(req.url.length)]);
  res.end(req.url, 'latin1');
};

test('a head or a body that arrives too slowly is answered 408 and closed; an idle keep-alive connection is closed', async (t) => {
  const { port } = await serveLean(t, (req, res) => {
    req.on('data', () => undefined);
    req.on('end', () => hello(req, res));
  }, { headersTimeout: 300, requestTimeout: 600, keepAliveTimeout: 300 });
  const slowHead = rawClient(port);
  slowHead.socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n');
  const slowBody = rawClient(port);
  slowBody.socket.write('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc');
  const idle = rawClient(port);
  idle.socket.write('GET /idle HTTP/1.1\r\nHost: x\r\n\r\n');
  await pollUntil(() => slowHead.closed() && slowBody.closed() && idle.closed(), { timeoutMs: 15_000, what: 'the slow and idle connections closed' });
  assert.match(slowHead.text(), /^HTTP\/1\.1 408 Request Timeout\r\nConnection: close\r\n\r\n$/);
  assert.match(slowBody.text(), /^HTTP\/1\.1 408 Request Timeout\r\n/);
  // The idle one got its answer first, then was closed with no further bytes.
  assert.match(idle.text(), /^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\/idle$/);
});

test('pipelined requests are answered in order while the first is slow; the second is handed over only after', async (t) => {
  const order: string[] = [];
  let releaseFirst: () => void = () => undefined;
  const { port } = await serveLean(t, (req, res) => {
    order.push(`start ${req.url}`);
    if (req.url === '/first') {
      releaseFirst = () => {
        order.push('end /first');
        hello(req, res);
      };
      return;
    }
    order.push(`end ${req.url}`);
    hello(req, res);
  });
  const c = rawClient(port);
  c.socket.write('GET /first HTTP/1.1\r\nHost: x\r\n\r\nGET /second HTTP/1.1\r\nHost: x\r\n\r\nGET /third HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await pollUntil(() => order.length > 0, { timeoutMs: 10_000, what: 'the first request handed over' });
  assert.deepEqual(order, ['start /first']);
  releaseFirst();
  await pollUntil(() => c.closed(), { timeoutMs: 10_000, what: 'the connection closed after the third answer' });
  assert.deepEqual(order, ['start /first', 'end /first', 'start /second', 'end /second', 'start /third', 'end /third']);
  const bodies = [...c.text().matchAll(/\r\n\r\n(\/[a-z]+)/g)].map((m) => m[1]);
  assert.deepEqual(bodies, ['/first', '/second', '/third']);
});

test('a handler that throws answers 500 and the server keeps serving; an invalid header value never splits the response', async (t) => {
  const { port } = await serveLean(t, (req, res) => {
    if (req.url === '/split') res.writeHead(200, ['X-Evil', 'a\r\nSet-Cookie: owned=1']);
    else hello(req, res);
  });
  const c = rawClient(port);
  c.socket.write('GET /split HTTP/1.1\r\nHost: x\r\n\r\n');
  await pollUntil(() => c.closed(), { timeoutMs: 10_000, what: 'the 500 and the close' });
  assert.match(c.text(), /^HTTP\/1\.1 500 Internal Server Error\r\n/);
  assert.doesNotMatch(c.text(), /owned/);
  const after = rawClient(port);
  after.socket.write('GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  await pollUntil(() => after.closed(), { timeoutMs: 10_000, what: 'the next answer' });
  assert.match(after.text(), /^HTTP\/1\.1 200 OK[\s\S]*\/after$/);
});

test('drain(): idle connections close at once; a busy one, or one with half a request head, finishes its answer with Connection: close', async (t) => {
  let finish: (() => void) | undefined;
  const { port, side } = await serveLean(t, (req, res) => {
    if (req.url === '/busy') finish = () => hello(req, res);
    else hello(req, res);
  });
  const idle = rawClient(port);
  idle.socket.write('GET /warm HTTP/1.1\r\nHost: x\r\n\r\n');
  await pollUntil(() => idle.text().endsWith('/warm'), { timeoutMs: 10_000, what: 'the idle connection warmed' });
  const busy = rawClient(port);
  busy.socket.write('GET /busy HTTP/1.1\r\nHost: x\r\n\r\n');
  await pollUntil(() => side.size === 2 && finish !== undefined, { timeoutMs: 10_000, what: 'the busy request handed over' });
  // node:http counts a connection active from a request's first byte: cutting it would lose a
  // request its client is still sending.
  const partial = rawClient(port);
  partial.socket.write('GET /partial HTTP/1.1\r\nHost: x\r\n');
  await pollUntil(() => side.size === 3, { timeoutMs: 10_000, what: 'the third connection' });
  side.drain();
  await pollUntil(() => idle.closed(), { timeoutMs: 10_000, what: 'the idle connection closed' });
  assert.equal(busy.closed(), false);
  assert.equal(partial.closed(), false);
  finish!();
  await pollUntil(() => busy.closed(), { timeoutMs: 10_000, what: 'the busy connection closed after its answer' });
  assert.match(busy.text(), /Connection: close\r\n[\s\S]*\/busy$/);
  partial.socket.write('\r\n');
  await pollUntil(() => partial.closed(), { timeoutMs: 10_000, what: 'the partial request answered, then closed' });
  assert.match(partial.text(), /Connection: close\r\n[\s\S]*\/partial$/);
});

test('GET / HTTP/2.0 on an HTTP/1.1 listener: 505 from the lean leg, and the node:http leg no longer crashes on it', async (t) => {
  const up = await startUpstream(t);
  const snapshot = parseDeclarativeConfig(`_format_version: "3.0"\nservices: [{ name: s, url: "http://127.0.0.1:${up.port}", routes: [{ name: r, paths: ["/"] }] }]\n`);
  for (const leg of ['lean', 'node'] as const) {
    const gateway = await buildGateway(TEST_CONFIG, { snapshot, clientLeg: leg });
    const [bound] = await gateway.listen();
    t.after(() => gateway.close());
    const c = rawClient(bound!.port);
    c.socket.write('GET /v HTTP/2.0\r\nHost: x\r\nConnection: close\r\n\r\n');
    await pollUntil(() => c.closed(), { timeoutMs: 10_000, what: `the ${leg} leg's answer` });
    // node:http proxies it as HTTP/1.1 (before the fix, the exchange threw on the missing HTTP/2 stream).
    assert.match(c.text(), leg === 'lean' ? /^HTTP\/1\.1 505 HTTP Version Not Supported\r\n/ : /^HTTP\/1\.1 200 OK\r\n/, leg);
  }
  assert.equal(up.hits, 1);
});


test('two Host fields are refused; an absolute-form target routes on its own authority, not on Host', async (t) => {
  const seen: string[] = [];
  const { port } = await serveLean(t, (req, res) => {
    seen.push(`${req.url} ${String(req.headers.host)}`);
    hello(req, res);
  });
  for (const head of ['GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n', 'GET /a HTTP/1.0\r\nHost: x\r\nhost: x\r\n\r\n']) {
    const c = rawClient(port);
    c.socket.write(head);
    await pollUntil(() => c.closed(), { timeoutMs: 10_000, what: 'the duplicate-Host connection closed' });
    assert.match(c.text(), /^HTTP\/1\.1 400 Bad Request\r\n/);
  }
  assert.deepEqual(seen, [], 'the handler never saw them');
  const c = rawClient(port);
  // The HTTP/1.0 request, without Host and without keep-alive, is the connection's last.
  c.socket.write('GET http://b.test:8080/x?q=1 HTTP/1.1\r\nHost: a.test\r\n\r\nGET http://c.test/y HTTP/1.0\r\n\r\n');
  await pollUntil(() => c.closed(), { timeoutMs: 10_000, what: 'two answers' });
  assert.deepEqual(seen, ['http://b.test:8080/x?q=1 b.test:8080', 'http://c.test/y c.test']);
});

test('lingering close: a client still sending a body its answer did not need gets the answer and a clean close, not a reset (nginx\'s lingering_close)', async (t) => {
  // Before, the connection closed as soon as the answer was out, and the bytes the client went
  // on sending were answered with a reset: curl uploading to a route that refuses before reading
  // the body reported "Connection reset by peer" instead of the 401.
  const { port } = await serveLean(t, (_req, res) => {
    res.writeHead(401, ['Content-Length', '6']);
    res.end('denied', 'latin1');
  });
  const MiB = 1024 * 1024;
  const total = 8 * MiB;
  for (const [name, head] of [
    ['Connection: close', `POST /upload HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${total}\r\n\r\n`],
    ['a framing error', `POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`],
  ] as const) {
    // As curl: the client keeps sending after the server's FIN (half-open), until its body is out.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let text = '';
    let failed: Error | undefined;
    let ended = false;
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
    socket.on('error', (e: Error) => (failed = e));
    socket.on('end', () => (ended = true));
    socket.write(head);
    socket.write(Buffer.alloc(64 * 1024));
    await pollUntil(() => /\r\n\r\n/.test(text), { timeoutMs: 10_000, what: `the answer (${name})` });
    // The client goes on sending its body, as an upload does, then closes its side.
    for (let sent = 64 * 1024; sent < total && failed === undefined; sent += MiB) {
      await new Promise<void>((resolve) => socket.write(Buffer.alloc(MiB), (err) => {
        if (err) failed ??= err;
        resolve();
      }));
    }
    socket.end();
    await pollUntil(() => (ended && socket.closed) || failed !== undefined, { timeoutMs: 20_000, what: `the close (${name})` });
    assert.equal(failed, undefined, `${name}: ${String(failed)}`);
    assert.match(text, name === 'Connection: close' ? /^HTTP\/1\.1 401 [^\r]*\r\n[\s\S]*\r\n\r\ndenied$/ : /^HTTP\/1\.1 400 Bad Request\r\nConnection: close\r\n\r\n$/, name);
    socket.destroy();
  }
});

test('lingering close is bounded and starts only once the answer is written: a silent client is closed; a slow reader gets the whole answer; bytes after a Connection: close request linger too', async (t) => {
  const MiB = 1024 * 1024;
  const big = Buffer.alloc(16 * MiB, 0x61);
  const { port, side } = await serveLean(t, (req, res) => {
    if (req.url === '/big') {
      res.writeHead(200, ['Content-Length', String(big.length)]);
      res.end(big);
      return;
    }
    res.writeHead(200, ['Content-Length', '2']);
    res.end('ok', 'latin1');
  }, { headersTimeout: 60_000, requestTimeout: 60_000, keepAliveTimeout: 60_000, lingerTimeout: 300, lingerTime: 2_000 });
  const halfOpen = () => {
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
    let bytes = 0;
    let text = '';
    let failed: Error | undefined;
    let closed = false;
    let ended = false;
    socket.on('data', (d: Buffer) => {
      bytes += d.length;
      if (text.length < 200) text += d.toString('latin1', 0, Math.min(d.length, 200));
    });
    socket.on('error', (e: Error) => (failed = e));
    socket.on('end', () => (ended = true));
    socket.on('close', () => (closed = true));
    t.after(() => socket.destroy());
    return { socket, bytes: () => bytes, text: () => text, failed: () => failed, closed: () => closed, ended: () => ended };
  };

  // A head refused inside the parser (no Host) from a client that then says nothing and never
  // closes: answered 400 and closed after the lingering timeout. Before, it was held forever.
  const silent = halfOpen();
  silent.socket.write('GET / HTTP/1.1\r\n\r\n');
  await pollUntil(() => silent.ended(), { timeoutMs: 10_000, what: 'the answer and the FIN' });
  await pollUntil(() => side.size === 0, { timeoutMs: 20_000, what: 'the silent client\'s connection closed by the server' });
  assert.match(silent.text(), /^HTTP\/1\.1 400 Bad Request\r\n/);
  assert.ok(silent.ended(), 'it got the FIN after the answer');

  // A large answer to a request whose body is not read, to a client that reads nothing for a
  // while (longer than the lingering timeout): it still gets every byte.
  const slow = halfOpen();
  slow.socket.pause();
  slow.socket.write('POST /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 100\r\n\r\n0123456789');
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  slow.socket.resume();
  await pollUntil(() => slow.ended() || slow.failed() !== undefined, { timeoutMs: 20_000, what: 'the slow reader done' });
  assert.equal(slow.failed(), undefined);
  assert.equal(slow.bytes() - slow.text().indexOf('\r\n\r\n') - 4, big.length, 'the whole answer');
  await pollUntil(() => side.size === 0, { timeoutMs: 20_000, what: 'the slow reader\'s connection closed after lingering' });

  // A request after one that asked to close: its bytes are read and dropped, not reset.
  const piped = halfOpen();
  piped.socket.write(`GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\nPOST /b HTTP/1.1\r\nHost: x\r\nContent-Length: ${8 * MiB}\r\n\r\n`);
  await pollUntil(() => /\r\n\r\nok$/.test(piped.text()), { timeoutMs: 10_000, what: 'the first answer' });
  for (let sent = 0; sent < 8 * MiB && piped.failed() === undefined; sent += MiB) {
    await new Promise<void>((resolve) => piped.socket.write(Buffer.alloc(MiB), () => resolve()));
  }
  piped.socket.end();
  await pollUntil(() => piped.closed(), { timeoutMs: 20_000, what: 'the pipelining client closed' });
  assert.equal(piped.failed(), undefined);
  assert.equal(side.size, 0, 'no connection left behind');
});

/** What an accepted socket's handle did, in order: 'nodelay' (TCP_NODELAY set) and 'write' (a write(2) or writev(2)). */
function recordHandle(socket: Socket, events: string[]): void {
  const handle = (socket as unknown as { _handle: Record<string, (...args: unknown[]) => unknown> })._handle;
  const wrap = (name: string, event: string): void => {
    const original = handle[name];
    if (typeof original !== 'function') return;
    handle[name] = function (this: unknown, ...args: unknown[]) {
      if (name !== 'setNoDelay' || args[0] === true) events.push(event);
      return original.apply(this, args);
    };
  };
  wrap('setNoDelay', 'nodelay');
  for (const name of ['writeLatin1String', 'writeUtf8String', 'writeBuffer', 'writev']) wrap(name, 'write');
}

test('TCP_NODELAY as nginx sets it: not for a whole answer on a connection that closes; before the write on a kept-alive one, a streamed body and a 100 Continue', async (t) => {
  const side = new LeanHttp1((req, res) => {
    if (req.url === '/stream') {
      res.writeHead(200, ['Content-Type', 'text/plain']);
      res.write('a', 'latin1');
      setImmediate(() => res.end('b', 'latin1'));
      return;
    }
    if (req.url === '/continue') {
      res.writeContinue();
      req.on('data', () => undefined);
      req.on('end', () => hello(req, res));
      return;
    }
    hello(req, res);
  });
  const events = new Map<number, string[]>();
  const server = createServer((socket) => {
    const list: string[] = [];
    events.set(socket.remotePort!, list);
    recordHandle(socket, list);
    side.serve(socket);
  });
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    side.closeAllConnections();
    server.close(() => resolve());
  }));
  const exchange = async (request: string, done: (text: string) => boolean): Promise<string[]> => {
    const c = rawClient(port);
    await new Promise((resolve) => c.socket.once('connect', resolve));
    const own = c.socket.localPort!;
    c.socket.write(request);
    await pollUntil(() => done(c.text()), { timeoutMs: 10_000, what: `the answer to ${request.split('\r\n')[0]}` });
    const list = events.get(own)!;
    c.socket.destroy();
    return list;
  };
  assert.deepEqual(await exchange('GET /close HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', (s) => s.endsWith('/close')), ['write'], 'one write, no setsockopt');
  assert.deepEqual(await exchange('GET /kept HTTP/1.1\r\nHost: x\r\n\r\n', (s) => s.endsWith('/kept')), ['nodelay', 'write']);
  assert.deepEqual(await exchange('GET /stream HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n', (s) => s.endsWith('0\r\n\r\n')), ['nodelay', 'write', 'write']);
  const continued = await exchange('POST /continue HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 0\r\n\r\n', (s) => s.endsWith('/continue'));
  assert.equal(continued[0], 'nodelay', 'set before the 100 Continue');
  assert.equal(continued.filter((e) => e === 'nodelay').length, 1, 'once per connection');
});
