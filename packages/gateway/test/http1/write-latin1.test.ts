// writeLatin1 writes straight to a socket's handle when nothing is queued ahead, else through
// socket.write. What must hold: bytes in order whichever way each write went, 'drain' after a
// write that had to wait, back-pressure seen by the caller, node's error shape, TLS alike.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Server, type Socket } from 'node:net';
import { test, type TestContext } from 'node:test';
import { createServer as createTlsServer } from 'node:tls';
import { issueCertificate } from '@signet/kit';
import { writeLatin1 } from '../../src/proxy/write-latin1.ts';
import { socketPair } from './socket-pair.fixture.ts';

/** A connected pair: `writer` is the server's side; `reader` the client, paused. */
async function pair(t: TestContext, server: Server): Promise<{ writer: Socket; reader: Socket }> {
  const { client, accepted } = await socketPair(t, server);
  client.pause();
  return { writer: accepted, reader: client };
}

/** Reads `reader` until `length` bytes came, as latin1. */
async function readAll(reader: Socket, length: number): Promise<string> {
  let text = '';
  reader.setEncoding('latin1');
  const done = new Promise<void>((resolve, reject) => {
    reader.on('data', (d: string) => {
      text += d;
      if (text.length >= length) resolve();
    });
    reader.on('close', () => reject(new Error(`closed after ${text.length} of ${length} bytes`)));
  });
  reader.resume();
  await done;
  return text;
}

/** Every latin1 character, so a wrong encoding shows. */
const ALL_BYTES = Array.from({ length: 256 }, (_, i) => String.fromCharCode(i)).join('');

for (const tls of [false, true]) {
  const kind = tls ? 'TLS' : 'plain';
  const makeServer = (): Server => {
    if (!tls) return createServer();
    const cert = issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] });
    return createTlsServer({ cert: cert.certPem, key: cert.keyPem });
  };

  test(`${kind}: a write with nothing queued arrives byte for byte`, async (t) => {
    const { writer, reader } = await pair(t, makeServer());
    assert.equal(writeLatin1(writer, ALL_BYTES), true);
    // Plain: straight to the handle, the Writable side unused; TLS: through socket.write.
    assert.equal(writer.writableLength, tls ? 256 : 0);
    assert.equal(await readAll(reader, 256), ALL_BYTES);
  });

  test(`${kind}: writes that wait keep their order and end in 'drain', mixed with socket.write`, async (t) => {
    const { writer, reader } = await pair(t, makeServer());
    // The reader is paused: the kernel's buffers fill until a write has to wait in libuv.
    const parts: string[] = [];
    let waited = false;
    for (let i = 0; i < 10_000 && !waited; i++) {
      const part = `${i}:` + 'x'.repeat(8000) + ALL_BYTES + '\n';
      parts.push(part);
      waited = !writeLatin1(writer, part);
    }
    assert.ok(waited, 'a write had to wait');
    const drained = once(writer, 'drain');
    // The next writes queue behind the waiting one, through the Writable side.
    const after = ['tail-1\n', 'tail-2\n'];
    for (const p of after) {
      assert.equal(writeLatin1(writer, p), false, 'back-pressure is still reported');
      parts.push(p);
    }
    assert.ok(writer.writableLength > 0, 'socket.write took the later writes');
    const expected = parts.join('');
    const got = readAll(reader, expected.length);
    await drained;
    assert.equal(await got, expected);
  });
}

test('a corked socket or one with bytes already queued is written through socket.write, in order', async (t) => {
  const { writer, reader } = await pair(t, createServer());
  writer.cork();
  assert.equal(writeLatin1(writer, 'a'), true);
  assert.equal(writer.writableLength, 1, 'held by the cork, not written past it');
  writer.uncork();
  writer.write('b');
  writeLatin1(writer, 'c');
  assert.equal(await readAll(reader, 3), 'abc');
});

test('a write on a reset connection destroys the socket with node\'s error shape', async (t) => {
  const { writer, reader } = await pair(t, createServer());
  const closed = new Promise<void>((resolve) => writer.once('close', () => resolve()));
  const errors: NodeJS.ErrnoException[] = [];
  writer.on('error', (e: NodeJS.ErrnoException) => errors.push(e));
  // Not reading, so the reset is met by a write, not a read.
  writer.pause();
  reader.resetAndDestroy();
  // The reset may arrive before or after the first write; writing on is refused either way.
  for (let i = 0; i < 50 && !writer.destroyed; i++) {
    writeLatin1(writer, 'x'.repeat(1000));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  await closed;
  assert.ok(writer.destroyed);
  assert.ok(errors.length > 0, 'the error was emitted');
  assert.match(String(errors[0]!.code), /^(EPIPE|ECONNRESET)$/);
  assert.equal(errors[0]!.syscall, 'write');
});
