// A client socket and the server's side of it, over real loopback TCP (plain or TLS): what the
// socket-level tests of the lean leg write and read. Both are destroyed and the server closed
// after the test.
import { once } from 'node:events';
import { connect as netConnect, type Server, type Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { connect as tlsConnect, Server as TlsServer } from 'node:tls';
import { listenOnLoopback } from '@signet/kit/testing';

export type SocketPair = { readonly client: Socket; readonly accepted: Socket };

/** Connects to `server` (a tls.Server: a TLS handshake first) and waits for its side. */
export async function socketPair(t: TestContext, server: Server | TlsServer): Promise<SocketPair> {
  const tls = server instanceof TlsServer;
  const acceptedNow = once(server, tls ? 'secureConnection' : 'connection').then(([s]) => s as Socket);
  const port = await listenOnLoopback(server);
  const client = tls ? tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }) : netConnect({ host: '127.0.0.1', port });
  t.after(async () => {
    client.destroy();
    (await acceptedNow).destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { client, accepted: await acceptedNow };
}
