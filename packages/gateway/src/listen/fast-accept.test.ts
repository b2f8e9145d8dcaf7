// fastAccept: a listener's accepted sockets built without net's options path. What the socket,
// the server's count and its events look like must be what net's own accept gives, on plain and
// TLS listeners; what it does not give goes through net. Real sockets on 127.0.0.1.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { connect, createServer, Socket, type Server } from 'node:net';
import { connect as tlsConnect, createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { issueCertificate, pollUntil } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import { fastAccept } from './fast-accept.ts';

async function listening(t: TestContext, server: Server): Promise<number> {
  const port = await listenOnLoopback(server);
  t.after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return port;
}

/** Connects, sends `line`, and reads until the server closes. */
async function exchange(port: number, line: string): Promise<{ text: string; local: number }> {
  const client = connect(port, '127.0.0.1');
  await once(client, 'connect');
  const local = client.localPort!;
  client.end(line);
  let text = '';
  client.on('data', (d: Buffer) => (text += d.toString()));
  await once(client, 'close');
  return { text, local };
}

test('a plain listener gets net.Sockets that read, write, know their peer, take noDelay and count in the server', async (t) => {
  const seen: { socket: Socket; remotePort: number | undefined; count: number }[] = [];
  const server = createServer({ noDelay: true }, (socket) => {
    seen.push({ socket, remotePort: socket.remotePort, count: (server as unknown as { _connections: number })._connections });
    // An echo; net ends the socket after the client's FIN (allowHalfOpen false).
    socket.on('data', (d: Buffer) => socket.write(d));
  });
  const port = await listening(t, server);
  const acceptOf = (): unknown => (server as unknown as { _handle: { onconnection: unknown } })._handle.onconnection;
  const netAccept = acceptOf();
  assert.equal(fastAccept(server), true);
  assert.notEqual(acceptOf(), netAccept, 'net accepts no more');
  const published: unknown[] = [];
  const onSocket = (message: unknown): void => void published.push((message as { socket: unknown }).socket);
  subscribe('net.server.socket', onSocket);
  t.after(() => unsubscribe('net.server.socket', onSocket));

  const { text, local } = await exchange(port, 'hello');
  assert.equal(text, 'hello');
  assert.equal(seen.length, 1);
  const { socket } = seen[0]!;
  assert.ok(socket instanceof Socket);
  assert.equal(seen[0]!.remotePort, local);
  assert.equal(seen[0]!.count, 1);
  assert.equal((socket as unknown as { server: Server }).server, server);
  assert.equal(socket.allowHalfOpen, false);
  assert.deepEqual(published, [socket]);
  // net's 'close' bookkeeping runs on these sockets too: the count goes back to 0.
  await pollUntil(() => new Promise<boolean>((resolve) => server.getConnections((_e, n) => resolve(n === 0))), { timeoutMs: 5_000, what: 'the connection count back to 0' });
  // Many at once, each echoing more than the socket buffers hold.
  const big = 'x'.repeat(256 * 1024);
  const results = await Promise.all(Array.from({ length: 20 }, () => exchange(port, big)));
  for (const r of results) assert.equal(r.text, big);
});

test('connections over maxConnections are dropped by net as before; a half-open server keeps its half-open sockets', async (t) => {
  const held: Socket[] = [];
  const server = createServer((socket) => void held.push(socket));
  server.maxConnections = 1;
  const port = await listening(t, server);
  t.after(() => {
    for (const s of held) s.destroy();
  });
  assert.equal(fastAccept(server), true);
  const first = connect(port, '127.0.0.1');
  first.on('error', () => undefined);
  await pollUntil(() => held.length === 1, { timeoutMs: 5_000, what: 'the first connection' });
  const dropped = once(server, 'drop');
  const second = connect(port, '127.0.0.1');
  second.on('error', () => undefined);
  await dropped;
  await once(second, 'close');
  assert.equal(held.length, 1);
  first.destroy();

  const halfOpen = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on('end', () => socket.end('after end'));
    socket.resume();
  });
  const halfPort = await listening(t, halfOpen);
  assert.equal(fastAccept(halfOpen), true);
  const { text } = await exchange(halfPort, 'bye');
  assert.equal(text, 'after end');
});

test('a TLS listener handshakes and serves over the sockets it accepts', async (t) => {
  const cert = issueCertificate({ commonName: 'fast.test', dnsNames: ['fast.test'] });
  const server = createTlsServer({ cert: cert.certPem, key: cert.keyPem, noDelay: true }, (socket: TLSSocket) => {
    socket.on('data', (d: Buffer) => socket.end(`tls ${d.toString()}`));
  });
  const port = await listening(t, server);
  assert.equal(fastAccept(server), true);
  const client = tlsConnect({ port, host: '127.0.0.1', servername: 'fast.test', rejectUnauthorized: false });
  await once(client, 'secureConnect');
  client.write('hi');
  let text = '';
  client.on('data', (d: Buffer) => (text += d.toString()));
  await once(client, 'close');
  assert.equal(text, 'tls hi');
});

test('servers with options a socket cannot be given afterwards, servers not listening, and other nodes are left to net', async (t) => {
  assert.equal(fastAccept(createServer()), false, 'not listening');
  const other = createServer();
  await listening(t, other);
  assert.equal(fastAccept(other, '22.12.0'), false, 'another major of node');
  const blocked = createServer();
  (blocked as unknown as { blockList: object }).blockList = {};
  await listening(t, blocked);
  assert.equal(fastAccept(blocked), false, 'a blockList (newer nodes)');
  for (const options of [{ keepAlive: true }, { pauseOnConnect: true }, { highWaterMark: 1024 }]) {
    const server = createServer(options, (socket) => {
      if (options.pauseOnConnect === true) socket.resume();
      socket.on('data', () => socket.end('net'));
    });
    const port = await listening(t, server);
    assert.equal(fastAccept(server), false, JSON.stringify(options));
    assert.equal((await exchange(port, 'x')).text, 'net');
  }
});
