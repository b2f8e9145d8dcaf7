// HTTP/2 sessions when a proxy listener with the `http2` flag closes (its own close(), as
// node:cluster's worker disconnect calls it, before the gateway's close()): each session gets
// GOAWAY at once, a stream in flight finishes, and the connection is cut once its last stream
// has ended, also for a client that never closes its side. Before, close() waited for every
// session until the grace cut. A session whose handshake finishes after the close began is
// served one stream. The grace period is far beyond every deadline here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect as http2Connect, constants } from 'node:http2';
import { connect as tlsConnect } from 'node:tls';
import { pollUntil } from '@signet/kit';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { closingListener, holdingRelay } from '../http1/listener-close.fixture.ts';

const DRAINED_WITHIN_MS = 8_000;
// RFC 9113 §3.4 and §6.5: the client preface, then an empty SETTINGS frame.
const PREFACE = Buffer.concat([Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1'), Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0])]);
const GOAWAY = 0x07;

/** The frame types in what a server sent (each frame: 3-byte length, type, flags, stream id). */
function frameTypes(bytes: Buffer): number[] {
  const types: number[] = [];
  for (let at = 0; at + 9 <= bytes.length; at += 9 + bytes.readUIntBE(at, 3)) types.push(bytes[at + 3]!);
  return types;
}

test('an idle HTTP/2 session whose client never closes its side: GOAWAY, then the connection is cut', async (t) => {
  const up = await startUpstream(t);
  const listener = await closingListener(t, up.port, { ssl: true, http2: true });
  const client = listener.track(tlsConnect({ host: '127.0.0.1', port: listener.port, servername: 'localhost', rejectUnauthorized: false, ALPNProtocols: ['h2'] }));
  let read = Buffer.alloc(0);
  let closed = false;
  client.on('data', (d: Buffer) => (read = Buffer.concat([read, d])));
  client.on('error', () => undefined);
  client.on('close', () => (closed = true));
  await new Promise((resolve) => client.once('secureConnect', resolve));
  assert.equal(client.alpnProtocol, 'h2');
  client.write(PREFACE);
  // The gateway's SETTINGS: its session exists.
  await pollUntil(() => frameTypes(read).length > 0, { timeoutMs: 10_000, what: "the gateway's SETTINGS" });
  listener.close();
  await pollUntil(() => listener.closed() && closed, { timeoutMs: DRAINED_WITHIN_MS, what: 'the listener closed, the client cut' });
  assert.ok(frameTypes(read).includes(GOAWAY), `frames ${frameTypes(read).join(',')}`);
});

test('an HTTP/2 stream in flight when the listener closes finishes, then the connection is cut', async (t) => {
  let release: (() => void) | undefined;
  const up = await startUpstream(t, (req, res) => {
    release = () => res.end('slow done');
  });
  const listener = await closingListener(t, up.port, { ssl: true, http2: true });
  const session = listener.track(http2Connect(`https://127.0.0.1:${listener.port}`, { servername: 'localhost', rejectUnauthorized: false }));
  session.on('error', () => undefined);
  let closed = false;
  session.on('close', () => (closed = true));
  const stream = session.request({ ':path': '/slow' });
  let status = 0;
  let body = '';
  let ended = false;
  stream.on('response', (h) => (status = Number(h[':status'])));
  stream.on('data', (d: Buffer) => (body += d.toString()));
  stream.on('end', () => (ended = true));
  stream.on('error', () => undefined);
  await pollUntil(() => release !== undefined, { timeoutMs: 10_000, what: 'the request at the upstream' });
  let goaway = -1;
  session.once('goaway', (code: number) => (goaway = code));
  listener.close();
  await pollUntil(() => goaway !== -1, { timeoutMs: DRAINED_WITHIN_MS, what: 'GOAWAY' });
  assert.equal(goaway, constants.NGHTTP2_NO_ERROR);
  assert.equal(listener.closed(), false);
  release!();
  await pollUntil(() => ended && listener.closed() && closed, { timeoutMs: DRAINED_WITHIN_MS, what: 'the answer, then the listener closed' });
  assert.equal(status, 200);
  assert.equal(body, 'slow done');
  assert.equal(up.hits, 1);
});

test('an HTTP/2 client whose handshake the gateway finishes after the close began: its first stream is answered, then GOAWAY', async (t) => {
  const up = await startUpstream(t);
  const listener = await closingListener(t, up.port, { ssl: true, http2: true });
  const relay = await holdingRelay(t, listener);
  const session = listener.track(http2Connect(`https://127.0.0.1:${relay.port}`, { servername: 'localhost', rejectUnauthorized: false }));
  session.on('error', () => undefined);
  let closed = false;
  session.on('close', () => (closed = true));
  // Its Finished, preface and request wait in the relay: it counts itself connected.
  await new Promise((resolve) => session.once('connect', resolve));
  const stream = session.request({ ':path': '/late' });
  let status = 0;
  let body = '';
  stream.on('response', (h) => (status = Number(h[':status'])));
  stream.on('data', (d: Buffer) => (body += d.toString()));
  stream.on('error', () => undefined);
  listener.close();
  relay.release();
  await pollUntil(() => listener.closed() && closed, { timeoutMs: DRAINED_WITHIN_MS, what: 'the answer, then the listener closed' });
  assert.equal(status, 200);
  assert.match(body, /"url":"\/late"/);
  assert.equal(up.hits, 1);
});
