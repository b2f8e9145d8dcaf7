// The proxy holds the first body chunk of an upstream read so that a response ending in the same
// read goes out as one write (proxy-exchange.ts HOLD_MAX). These tests pin what that must not
// change: bytes arrive unchanged (all 256 byte values), and a held chunk is flushed at the end of
// its read — the upstream below waits until the client has seen the first part before sending
// the rest, so a chunk held too long makes the test time out instead of pass.
import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import { test, type TestContext } from 'node:test';
import { pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { startGateway } from './proxy.fixture.ts';

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** A raw upstream: `respond` writes the response to each request's socket itself. */
async function rawUpstream(t: TestContext, respond: (socket: Socket) => Promise<void>): Promise<number> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    let seen = '';
    socket.on('data', (d: Buffer) => {
      seen += d.toString('latin1');
      if (!seen.includes('\r\n\r\n')) return;
      seen = '';
      respond(socket).catch((err: unknown) => socket.destroy(err as Error));
    });
  });
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => {
    for (const s of sockets) s.destroy();
    server.close(() => resolve());
  }));
  return port;
}

/** GET / through the gateway; `received` grows as body bytes arrive. */
async function get(port: number, method = 'GET'): Promise<{ res: IncomingMessage; received: Buffer[]; done: Promise<Buffer> }> {
  const req = httpRequest({ host: '127.0.0.1', port, path: '/', method, agent: false });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  const received: Buffer[] = [];
  res.on('data', (chunk: Buffer) => received.push(chunk));
  const done = once(res, 'end').then(() => Buffer.concat(received));
  return { res, received, done };
}

async function gatewayTo(t: TestContext, upstreamPort: number): Promise<number> {
  const svc = service({ host: '127.0.0.1', port: upstreamPort });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  return g.port;
}

test('head and body in one upstream read: every byte value relayed unchanged', async (t) => {
  const up = await rawUpstream(t, (socket) => {
    socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${ALL_BYTES.length * 4}\r\nX-Test: one\r\n\r\n`), ALL_BYTES, ALL_BYTES, ALL_BYTES, ALL_BYTES]));
    return Promise.resolve();
  });
  const port = await gatewayTo(t, up);
  for (let i = 0; i < 3; i++) {
    const { res, done } = await get(port);
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers['x-test'], 'one');
    assert.equal(res.headers['content-length'], String(ALL_BYTES.length * 4));
    assert.deepEqual(await done, Buffer.concat([ALL_BYTES, ALL_BYTES, ALL_BYTES, ALL_BYTES]));
  }
});

test('a Content-Length body over several reads: the first part reaches the client before the upstream sends the rest', async (t) => {
  let clientHasFirstPart: () => boolean = () => false;
  const up = await rawUpstream(t, async (socket) => {
    socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${ALL_BYTES.length * 2}\r\n\r\n`), ALL_BYTES]));
    await pollUntil(() => clientHasFirstPart(), { timeoutMs: 5000, what: 'client received the first part' });
    socket.write(ALL_BYTES);
  });
  const port = await gatewayTo(t, up);
  const { received, done } = await get(port);
  clientHasFirstPart = () => Buffer.concat(received).length >= ALL_BYTES.length;
  assert.deepEqual(await done, Buffer.concat([ALL_BYTES, ALL_BYTES]));
});

test('a chunked body, several chunks per read, over several reads: order and bytes kept', async (t) => {
  const chunk = (b: Buffer) => Buffer.concat([Buffer.from(b.length.toString(16) + '\r\n'), b, Buffer.from('\r\n')]);
  const part1 = Buffer.concat([chunk(ALL_BYTES.subarray(0, 100)), chunk(ALL_BYTES.subarray(100, 200)), chunk(ALL_BYTES.subarray(200))]);
  let clientHasFirstPart: () => boolean = () => false;
  const up = await rawUpstream(t, async (socket) => {
    socket.write(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n'), part1]));
    await pollUntil(() => clientHasFirstPart(), { timeoutMs: 5000, what: 'client received the first chunks' });
    socket.write(Buffer.concat([chunk(ALL_BYTES.subarray(0, 50)), Buffer.from('0\r\n\r\n')]));
  });
  const port = await gatewayTo(t, up);
  const { res, received, done } = await get(port);
  clientHasFirstPart = () => Buffer.concat(received).length >= ALL_BYTES.length;
  assert.equal(res.headers['transfer-encoding'], 'chunked');
  assert.deepEqual(await done, Buffer.concat([ALL_BYTES, ALL_BYTES.subarray(0, 50)]));
});

test('a body larger than the hold limit in one read is relayed whole', async (t) => {
  const big = Buffer.concat(Array.from({ length: 200 }, () => ALL_BYTES)); // 51,200 bytes
  const up = await rawUpstream(t, (socket) => {
    socket.write(Buffer.concat([Buffer.from(`HTTP/1.1 200 OK\r\nContent-Length: ${big.length}\r\n\r\n`), big]));
    return Promise.resolve();
  });
  const port = await gatewayTo(t, up);
  const { done } = await get(port);
  assert.deepEqual(await done, big);
});
