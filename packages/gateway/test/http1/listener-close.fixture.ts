// A gateway listener closed as node:cluster's worker disconnect closes it (the listener's own
// close(), before the gateway's close() runs), and what the tests of the drain watch on it.
import { connect, createServer, type Server } from 'node:net';
import type { TestContext } from 'node:test';
import { listenOnLoopback } from '@signet/kit/testing';
import { buildGateway } from '../../src/build-gateway.ts';
import type { ListenAddress } from '../../src/config.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { TEST_CONFIG } from '../proxy/proxy.fixture.ts';

export type ClosingListener = {
  readonly port: number;
  /** Starts the listener's close(), as a worker's disconnect does. */
  close(): void;
  /** Whether its close() has called back (every connection it accepted is gone). */
  closed(): boolean;
  /** A client connection cut before the gateway closes, after the test (so a failing test ends). */
  track<T extends { destroy(): void }>(client: T): T;
};

/**
 * One proxy listener of a gateway routing everything to the upstream on `upstreamPort` (and a
 * grpc route, so a plain listener tells h2c apart by its first bytes). The grace period is
 * far beyond any test's deadline: what closes in time was drained, not cut at the grace.
 */
export async function closingListener(t: TestContext, upstreamPort: number, listen: Omit<ListenAddress, 'host' | 'port'>): Promise<ClosingListener> {
  const snapshot = parseDeclarativeConfig(`_format_version: "3.0"
services:
  - { name: s, url: "http://127.0.0.1:${upstreamPort}", routes: [{ name: r, paths: ["/"] }] }
  - { name: g, protocol: grpc, host: 127.0.0.1, port: ${upstreamPort}, routes: [{ name: gr, protocols: [grpc], paths: ["/signet.Drain/"] }] }
`);
  let server: Server | undefined;
  const gateway = await buildGateway(
    { ...TEST_CONFIG, proxyListen: [{ host: '127.0.0.1', port: 0, ...listen }], shutdownGraceMs: 600_000 },
    { snapshot, configureListener: (s) => (server = s) },
  );
  const [bound] = await gateway.listen();
  let done = false;
  const clients: { destroy(): void }[] = [];
  t.after(() => {
    for (const c of clients) c.destroy();
    return gateway.close();
  });
  return {
    port: bound!.port,
    close: () => server!.close(() => (done = true)),
    closed: () => done,
    track: (client) => {
      clients.push(client);
      return client;
    },
  };
}

/**
 * A TCP relay to the listener that passes the client's first write (its ClientHello) and every
 * byte back, and holds the client's later bytes (its Finished, its request) until release():
 * the client is connected in TLS 1.3's eyes while the gateway's handshake is still open.
 */
export async function holdingRelay(t: TestContext, listener: ClosingListener): Promise<{ port: number; release(): void }> {
  let release = (): void => undefined;
  const relay = createServer((client) => {
    const up = listener.track(connect(listener.port, '127.0.0.1'));
    const held: Buffer[] = [];
    let first = true;
    let holding = true;
    client.on('data', (d: Buffer) => {
      if (first || !holding) up.write(d);
      else held.push(d);
      first = false;
    });
    release = () => {
      holding = false;
      for (const d of held) up.write(d);
    };
    up.on('data', (d: Buffer) => client.write(d));
    up.on('close', () => client.destroy());
    client.on('close', () => up.destroy());
    up.on('error', () => undefined);
    client.on('error', () => undefined);
  });
  const port = await listenOnLoopback(relay);
  t.after(() => new Promise<void>((resolve) => relay.close(() => resolve())));
  return { port, release: () => release() };
}
