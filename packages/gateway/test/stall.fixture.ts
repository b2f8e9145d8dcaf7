// Clients that start a connection and then go silent (a stalled TLS handshake, an idle HTTP/2
// preface), for the tests that hold the gateway to its deadlines on them. Every socket opened
// here is destroyed by the test's end.
import { once } from 'node:events';
import { connect as netConnect, createServer, type Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { connect as tlsConnect } from 'node:tls';
import { pollUntil } from '@signet/kit';

/** RFC 9113 §3.4: the client connection preface, and an empty SETTINGS frame after it. */
export const H2_PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');
export const H2_EMPTY_SETTINGS = Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]);

/**
 * The first flight of a node TLS client for `servername` (its ClientHello, `alpn` offered),
 * captured by a listener that answers nothing, so a test can send it and then stay silent.
 */
export async function clientHello(servername: string, alpn?: string[]): Promise<Buffer> {
  const capture = createServer();
  let client: Socket | undefined;
  try {
    const first = new Promise<Buffer>((resolve) => capture.once('connection', (c: Socket) => c.once('data', (d: Buffer) => {
      resolve(d);
      c.destroy();
    })));
    await new Promise<void>((resolve) => capture.listen(0, '127.0.0.1', resolve));
    const { port } = capture.address() as { port: number };
    client = tlsConnect({ host: '127.0.0.1', port, servername, ...(alpn ? { ALPNProtocols: alpn } : {}) });
    client.on('error', () => undefined);
    return await first;
  } finally {
    client?.destroy();
    capture.close();
  }
}

/** A connection that sent `bytes` and nothing since; `closed` turns true when the gateway closes it. */
export type StalledClient = { readonly closed: () => boolean };

/**
 * Connects to 127.0.0.1:`port` (with `tls`: completes a handshake offering ALPN h2 to that
 * server name, certificate unchecked), writes `bytes`, then reads whatever comes and sends
 * nothing more.
 */
export async function stall(t: TestContext, port: number, bytes: Buffer, tls?: { servername: string }): Promise<StalledClient> {
  const socket: Socket = tls
    ? tlsConnect({ host: '127.0.0.1', port, servername: tls.servername, ALPNProtocols: ['h2'], rejectUnauthorized: false })
    : netConnect({ host: '127.0.0.1', port });
  t.after(() => socket.destroy());
  let closed = false;
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  socket.once('close', () => {
    closed = true;
  });
  await once(socket, tls ? 'secureConnect' : 'connect');
  socket.write(bytes);
  return { closed: () => closed };
}

/**
 * Waits (at most `timeoutMs`, far above the short deadlines the tests configure) for the gateway
 * to close a stalled connection; rejects naming `what` if it is still open then.
 */
export async function closedByGateway(client: StalledClient, what: string, timeoutMs = 10_000): Promise<void> {
  await pollUntil(() => client.closed(), { timeoutMs, what: `${what}: closed by the gateway` });
}
