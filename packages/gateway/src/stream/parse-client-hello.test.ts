import assert from 'node:assert/strict';
import { Duplex } from 'node:stream';
import { test } from 'node:test';
import { connect } from 'node:tls';
import fc from 'fast-check';
import { parseClientHello } from './parse-client-hello.ts';

/** The real ClientHello node's TLS stack writes for these options (captured in memory, no socket). */
async function clientHelloOf(options: { servername?: string; ALPNProtocols?: string[]; maxVersion?: 'TLSv1.2' | 'TLSv1.3' }): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let resolveFirst: (() => void) | undefined;
  const first = new Promise<void>((resolve) => (resolveFirst = resolve));
  const wire = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      resolveFirst?.();
      cb();
    },
  });
  const socket = connect({ socket: wire, rejectUnauthorized: false, ...options });
  socket.on('error', () => undefined);
  await first;
  socket.destroy();
  return Buffer.concat(chunks);
}

/** Re-frames one handshake message into records of at most `size` bytes. */
function splitRecords(hello: Buffer, size: number): Buffer {
  const body = hello.subarray(5, 5 + hello.readUInt16BE(3));
  const out: Buffer[] = [];
  for (let i = 0; i < body.length; i += size) {
    const part = body.subarray(i, i + size);
    const header = Buffer.from([0x16, 0x03, 0x01, 0, 0]);
    header.writeUInt16BE(part.length, 3);
    out.push(header, part);
  }
  return Buffer.concat(out);
}

test('server name and ALPN of a real TLS 1.3 ClientHello', async () => {
  const hello = await clientHelloOf({ servername: 'Api.Example.TEST', ALPNProtocols: ['h2', 'http/1.1'] });
  assert.deepEqual(parseClientHello(hello), { kind: 'client_hello', serverName: 'api.example.test', alpn: ['h2', 'http/1.1'] });
});

test('a TLS 1.2-only ClientHello is read the same way', async () => {
  const hello = await clientHelloOf({ servername: 'a.test', maxVersion: 'TLSv1.2' });
  assert.deepEqual(parseClientHello(hello), { kind: 'client_hello', serverName: 'a.test', alpn: [] });
});

test('no server_name extension: serverName undefined', async () => {
  const hello = await clientHelloOf({ servername: '' });
  const result = parseClientHello(hello);
  assert.equal(result.kind, 'client_hello');
  assert.equal(result.kind === 'client_hello' ? result.serverName : 'x', undefined);
});

test('every strict prefix needs more bytes; the whole message is enough', async () => {
  const hello = await clientHelloOf({ servername: 'prefix.test' });
  for (let n = 0; n < hello.length; n++) assert.equal(parseClientHello(hello.subarray(0, n)).kind, 'need_more', `prefix ${n}`);
  assert.equal(parseClientHello(hello).kind, 'client_hello');
});

test('a ClientHello spread over several records is reassembled', async () => {
  const hello = await clientHelloOf({ servername: 'split.example.test' });
  for (const size of [1, 7, 100]) {
    const records = splitRecords(hello, size);
    assert.deepEqual(parseClientHello(records), { kind: 'client_hello', serverName: 'split.example.test', alpn: [] }, `records of ${size}`);
    assert.equal(parseClientHello(records.subarray(0, records.length - 1)).kind, 'need_more');
  }
});

test('what is not a TLS handshake is refused at once', () => {
  assert.equal(parseClientHello(Buffer.from('GET / HTTP/1.1\r\nHost: a\r\n\r\n')).kind, 'not_tls');
  assert.equal(parseClientHello(Buffer.from('PRI * HTTP/2.0\r\n')).kind, 'not_tls');
  // A handshake record whose message is a ServerHello (type 2).
  assert.deepEqual(parseClientHello(Buffer.from([0x16, 0x03, 0x03, 0x00, 0x10, 0x02, 0, 0])), { kind: 'not_tls', reason: 'not a ClientHello' });
  // An alert record.
  assert.equal(parseClientHello(Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 2, 40])).kind, 'not_tls');
});

test('a corrupted length inside the hello is refused, never read past', async () => {
  const hello = Buffer.from(await clientHelloOf({ servername: 'corrupt.test' }));
  // Session id length (after 5 + 4 + 2 + 32 bytes) set past the end of the message.
  hello[43] = 0xff;
  assert.equal(parseClientHello(hello).kind, 'not_tls');
});

test('arbitrary bytes never throw', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
      const r = parseClientHello(bytes);
      assert.ok(['need_more', 'not_tls', 'client_hello'].includes(r.kind));
    }),
    { numRuns: 2000 },
  );
  fc.assert(
    fc.property(fc.uint8Array({ minLength: 1, maxLength: 200 }), (tail) => {
      // A plausible record header followed by noise exercises the inner readers.
      const bytes = Buffer.concat([Buffer.from([0x16, 0x03, 0x01, 0x00, tail.length, 0x01, 0x00, 0x00, Math.max(0, tail.length - 4)]), tail]);
      parseClientHello(bytes);
    }),
    { numRuns: 2000 },
  );
});
