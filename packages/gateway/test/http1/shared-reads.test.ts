// The lean leg reads every client connection into one shared buffer (readInto). Nothing may keep
// a view of a read: a body chunk held while the proxy connects upstream, or queued behind an
// upstream socket that is full, must survive other connections' reads. Random bytes, so a chunk
// overwritten by another read shows (llhttp's copies are checked in src/proxy/http-parser.test.ts).
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, connect as netConnect, type Socket } from 'node:net';
import { test } from 'node:test';
import { createServer as createTlsServer } from 'node:tls';
import { issueCertificate } from '@signet/kit';
import { request } from 'undici';
import { readInto } from '../../src/http1/read-into.ts';
import { socketPair } from './socket-pair.fixture.ts';
import { route, service, snapshot } from '../snapshot.fixture.ts';
import { startGateway, startUpstream } from '../proxy/proxy.fixture.ts';

const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** The client's FIN reaches a readInto socket as 'end' (the lean leg closes on it), then 'close'. */
async function finIsEndThenClose(client: Socket, socket: Socket): Promise<void> {
  const ended = once(socket, 'end');
  const closed = once(socket, 'close');
  client.end();
  await ended;
  socket.end();
  await closed;
}

test('readInto hands a plain socket\'s reads to the callback in the given buffer; pause, end and close work', async (t) => {
  // As the lean leg uses it: nobody listens for 'data', the callback gets every byte.
  const { client, accepted: socket } = await socketPair(t, createServer());
  const buffer = Buffer.alloc(1024);
  const got: Buffer[] = [];
  let arrived: (() => void) | undefined;
  assert.equal(readInto(socket, buffer, (n, b) => {
    assert.equal(b, buffer);
    got.push(Buffer.from(b.subarray(0, n)));
    arrived?.();
    return true;
  }), true);

  const first = new Promise<void>((resolve) => (arrived = resolve));
  client.write('hello');
  await first;
  assert.equal(Buffer.concat(got).toString(), 'hello');

  // Paused: bytes wait in the kernel until resume(). On loopback a written chunk is in the
  // receiver's queue when write() calls back; a reading handle would get it in the next poll.
  socket.pause();
  await new Promise<void>((resolve) => client.write('world', () => resolve()));
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(Buffer.concat(got).toString(), 'hello');
  const second = new Promise<void>((resolve) => (arrived = resolve));
  socket.resume();
  await second;
  assert.equal(Buffer.concat(got).toString(), 'helloworld');
  assert.equal(socket.readableLength, 0, 'nothing went to the Readable side');

  await finIsEndThenClose(client, socket);
});

test('readInto leaves a socket that someone reads with \'data\' alone', async (t) => {
  const { client, accepted: socket } = await socketPair(t, createServer());
  const seen = new Promise<string>((resolve) => socket.once('data', (d: Buffer) => resolve(String(d))));
  assert.equal(readInto(socket, Buffer.alloc(64), () => assert.fail('the callback must not be used')), false);
  client.write('still data');
  assert.equal(await seen, 'still data');
});

test('readInto leaves a socket holding unshifted bytes to its \'data\' reader', async (t) => {
  const { client, accepted: socket } = await socketPair(t, createServer());
  client.write('sniffed');
  const [first] = (await once(socket, 'data')) as [Buffer];
  socket.pause();
  socket.unshift(first);
  assert.equal(readInto(socket, Buffer.alloc(64), () => true), false);
  const again = once(socket, 'data');
  socket.resume();
  assert.equal(String((await again)[0]), 'sniffed');
});

test('readInto reads a TLS socket\'s cleartext into the buffer; pause, end and close work', async (t) => {
  const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] });
  const { client, accepted: socket } = await socketPair(t, createTlsServer({ cert: cert.certPem, key: cert.keyPem }));
  const payload = randomBytes(200_000);
  const got: Buffer[] = [];
  let total = 0;
  let wanted = payload.length;
  let arrived: (() => void) | undefined;
  assert.equal(readInto(socket, Buffer.alloc(16 * 1024), (n, b) => {
    got.push(Buffer.from(b.subarray(0, n)));
    total += n;
    if (total === wanted) arrived?.();
    return true;
  }), true);
  const all = new Promise<void>((resolve) => (arrived = resolve));
  client.write(payload);
  await all;
  assert.equal(sha(Buffer.concat(got)), sha(payload));

  socket.pause();
  await new Promise<void>((resolve) => client.write('later', () => resolve()));
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  assert.equal(total, payload.length, 'nothing read while paused');
  wanted += 5;
  const rest = new Promise<void>((resolve) => (arrived = resolve));
  socket.resume();
  await rest;
  assert.equal(Buffer.concat(got).subarray(payload.length).toString(), 'later');

  await finIsEndThenClose(client, socket);
});

test('request bodies through the lean leg arrive intact while other connections reuse the read buffer', async (t) => {
  // The upstream hashes what it gets. It reads the first body only after the others are done,
  // so that body waits in the gateway (held, then queued behind a full socket) across many
  // reads of the other connections into the same buffer.
  const bodies = Array.from({ length: 4 }, () => randomBytes(6 * 1024 * 1024 + 17));
  let othersDone = 0;
  let releaseFirst: (() => void) | undefined;
  const firstMayRead = new Promise<void>((resolve) => (releaseFirst = resolve));
  const s = await startUpstream(t, (req, res) => {
    const hash = createHash('sha256');
    const slow = req.url === '/0';
    if (slow) {
      req.pause();
      void firstMayRead.then(() => req.resume());
    }
    req.on('data', (c: Buffer) => hash.update(c));
    req.on('end', () => {
      res.end(hash.digest('hex'));
      if (!slow && ++othersDone === bodies.length - 1) releaseFirst?.();
    });
  });
  const svc = service({ host: '127.0.0.1', port: s.port });
  const g = await startGateway(t, snapshot({ services: [svc], routes: [route({ paths: ['/'], service: { id: svc.id } })] }));
  const answers = await Promise.all(bodies.map(async (body, i) => {
    const res = await request(`${g.url}/${i}`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } });
    return { status: res.statusCode, text: await res.body.text() };
  }));
  assert.deepEqual(answers, bodies.map((b) => ({ status: 200, text: sha(b) })));

  // A pipelined second request's body is parsed (and held) while the first is answered.
  const a = randomBytes(70_000);
  const b = randomBytes(90_000);
  const raw = netConnect({ host: '127.0.0.1', port: g.port });
  t.after(() => raw.destroy());
  const head = (path: string, body: Buffer): string =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`;
  let text = '';
  raw.setEncoding('latin1');
  const both = new Promise<void>((resolve, reject) => {
    raw.on('data', (d: string) => {
      text += d;
      if (text.includes(sha(a)) && text.includes(sha(b))) resolve();
    });
    raw.on('close', () => reject(new Error(`closed before both answers: ${text}`)));
  });
  raw.write(Buffer.concat([Buffer.from(head('/p1', a)), a, Buffer.from(head('/p2', b)), b]));
  await both;
  assert.ok(text.includes(sha(a)) && text.includes(sha(b)), 'both pipelined bodies arrived intact');
  assert.ok(text.indexOf(sha(a)) < text.indexOf(sha(b)), 'answered in order');
});
