// A proxy listener's close() (what node:cluster's worker disconnect calls before the worker's
// own shutdown) drains what its HTTP sides do not see yet: a TCP connection to the TLS listener
// that has sent no ClientHello or half of one, a plain one that has sent nothing while h2c is
// told apart by its first bytes — cut at once, as nginx does; before, close() waited for them
// until the grace cut (SIGKILL under node:cluster). A handshake the gateway had answered when
// the close began is let finish: its request is answered with `Connection: close`, and a client
// that sends nothing, or never finishes its handshake, is closed soon after. The grace period is
// far beyond every deadline here: each close() ends through the drain.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { pollUntil } from '@signet/kit';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { closingListener, holdingRelay, type ClosingListener } from './listener-close.fixture.ts';

// Far below the grace period (10 min here), above the drain's own 1 s window on a busy machine.
const DRAINED_WITHIN_MS = 8_000;

async function connected(listener: ClosingListener): Promise<Socket> {
  const socket = listener.track(connect(listener.port, '127.0.0.1'));
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

type TlsClient = { socket: TLSSocket; text: () => string; closed: () => boolean };

async function securedThrough(listener: ClosingListener, port: number): Promise<TlsClient> {
  const socket = listener.track(tlsConnect({ host: '127.0.0.1', port, servername: 'localhost', rejectUnauthorized: false, ALPNProtocols: ['http/1.1'], minVersion: 'TLSv1.3' }));
  let text = '';
  let closed = false;
  socket.on('data', (d: Buffer) => (text += d.toString('latin1')));
  socket.on('error', () => undefined);
  socket.on('close', () => (closed = true));
  await new Promise((resolve) => socket.once('secureConnect', resolve));
  return { socket, text: () => text, closed: () => closed };
}

test('a TCP connection to the TLS listener with no ClientHello, or half of one, is cut at once when the listener closes', async (t) => {
  const up = await startUpstream(t);
  for (const sent of [Buffer.alloc(0), Buffer.from([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00])]) {
    const listener = await closingListener(t, up.port, { ssl: true });
    const client = await connected(listener);
    if (sent.length > 0) client.write(sent);
    let cut = false;
    client.on('close', () => (cut = true));
    listener.close();
    await pollUntil(() => listener.closed() && cut, { timeoutMs: DRAINED_WITHIN_MS, what: `the listener closed, the client (${sent.length} bytes sent) cut` });
  }
});

test('a plain connection that has sent nothing while h2c is told apart by its first bytes is cut at once', async (t) => {
  const up = await startUpstream(t);
  const listener = await closingListener(t, up.port, { ssl: false });
  const client = await connected(listener);
  let cut = false;
  client.on('close', () => (cut = true));
  listener.close();
  await pollUntil(() => listener.closed() && cut, { timeoutMs: DRAINED_WITHIN_MS, what: 'the listener closed, the client cut' });
});

test('a TLS 1.3 client whose handshake the gateway finishes after the close began gets its request answered with Connection: close', async (t) => {
  const up = await startUpstream(t);
  const listener = await closingListener(t, up.port, { ssl: true });
  const relay = await holdingRelay(t, listener);
  const client = await securedThrough(listener, relay.port);
  client.socket.write('GET /late HTTP/1.1\r\nHost: localhost\r\n\r\n');
  listener.close();
  assert.equal(client.closed(), false);
  relay.release();
  await pollUntil(() => listener.closed() && client.closed(), { timeoutMs: DRAINED_WITHIN_MS, what: 'the answer, then the listener closed' });
  assert.match(client.text(), /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(client.text(), /\r\nConnection: close\r\n/i);
  assert.match(client.text(), /"url":"\/late"/);
  assert.equal(up.hits, 1);
});

test('after the close began, a client that finishes its handshake and sends nothing, or never finishes it, is closed soon after', async (t) => {
  const up = await startUpstream(t);
  for (const finishes of [true, false]) {
    const listener = await closingListener(t, up.port, { ssl: true });
    const relay = await holdingRelay(t, listener);
    const client = await securedThrough(listener, relay.port);
    listener.close();
    if (finishes) relay.release();
    await pollUntil(() => listener.closed() && client.closed(), { timeoutMs: DRAINED_WITHIN_MS, what: `the listener closed (handshake ${finishes ? 'finished' : 'never finished'})` });
    assert.equal(client.text(), '');
  }
  assert.equal(up.hits, 0);
});
