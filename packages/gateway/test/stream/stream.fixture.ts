// Real listeners for stream-proxy tests: TCP and TLS echo servers on 127.0.0.1:0 that prefix
// each reply with their name, a StreamProxy over a Runtime with real LocalHealth, and a client
// that sends one line and reads the reply. Everything is closed in t.after.
import { connect as netConnect, createServer, type Server, type Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { connect as tlsConnect, createServer as createTlsServer } from 'node:tls';
import { createCertificateAuthority, issueCertificate, type KeyPair } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';
import type { Address } from '../../src/balancer/index.ts';
import type { Upstream } from '../../src/declarative/types.ts';
import type { Snapshot } from '../../src/declarative/types.ts';
import { LocalHealth } from '../../src/health/local-health.ts';
import { passiveHealthHooks } from '../../src/proxy/passive-health-hooks.ts';
import type { AttemptOutcome } from '../../src/proxy/proxy-hooks.ts';
import { Runtime } from '../../src/runtime.ts';
import { StreamProxy, type StreamEvent } from '../../src/stream/index.ts';

/** An echo server: each chunk comes back as `<name>:<chunk>`. */
export type Echo = {
  readonly name: string;
  readonly port: number;
  /** Connections accepted so far. */
  accepted: number;
  /** Stops listening and cuts every open connection (a target that died). */
  kill(): Promise<void>;
};

export async function startEcho(t: TestContext, name: string, tls?: KeyPair): Promise<Echo> {
  const sockets = new Set<Socket>();
  const onSocket = (socket: Socket): void => {
    echo.accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.on('data', (chunk: Buffer) => socket.write(`${name}:${chunk.toString()}`));
    socket.on('end', () => socket.end());
  };
  const server: Server = tls ? createTlsServer({ cert: tls.certPem, key: tls.keyPem }, onSocket) : createServer({ allowHalfOpen: true }, onSocket);
  const echo: Echo = {
    name,
    port: 0,
    accepted: 0,
    kill: () => new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      server.close(() => resolve());
      for (const s of sockets) s.destroy();
    }),
  };
  (echo as { port: number }).port = await listenOnLoopback(server);
  t.after(() => echo.kill());
  return echo;
}

/** A development CA and certificates it issued, one per name. */
export function pki(names: readonly string[]): { ca: KeyPair; certs: Record<string, KeyPair> } {
  const ca = createCertificateAuthority({ commonName: 'Stream test CA' });
  const certs: Record<string, KeyPair> = {};
  for (const n of names) certs[n] = issueCertificate({ commonName: n, dnsNames: [n] }, ca);
  return { ca, certs };
}

export type Attempt = { readonly upstream: string; readonly key: string; readonly outcome: AttemptOutcome; readonly retried: boolean };

export type StreamGateway = {
  readonly proxy: StreamProxy;
  readonly runtime: Runtime;
  readonly health: LocalHealth;
  readonly plainPort: number;
  readonly tlsPort: number;
  /** Every attempt the proxy reported, in order. */
  readonly attempts: Attempt[];
  readonly events: StreamEvent[];
};

/** A StreamProxy with a plain and an ssl listener on 127.0.0.1:0, wired to health as cluster/start-data-plane.ts wires the proxy. */
export async function startStreamGateway(
  t: TestContext,
  snapshot: Snapshot,
  options: { defaultCertificate?: KeyPair; trustedCa?: string[]; handshakeTimeoutMs?: number } = {},
): Promise<StreamGateway> {
  const health = new LocalHealth();
  health.load(snapshot);
  const runtime = new Runtime(snapshot, {
    defaultCertificate: options.defaultCertificate ?? issueCertificate({ commonName: 'localhost', dnsNames: ['localhost'] }),
    isAddressHealthy: (u, a: Address) => health.isAddressHealthy(u, a.key),
  });
  health.onAvailabilityChange((u, key, up) => runtime.setAddressStatus(u, key, up));
  const attempts: Attempt[] = [];
  const events: StreamEvent[] = [];
  const passive = passiveHealthHooks(health);
  const proxy = new StreamProxy({
    getState: () => runtime.state,
    hooks: {
      onAttempt(upstream: Upstream, address: Address, outcome: AttemptOutcome, retried: boolean) {
        attempts.push({ upstream: upstream.name, key: address.key, outcome, retried });
        passive.onAttempt!(upstream, address, outcome, retried);
      },
    },
    log: (e) => events.push(e),
    shutdownGraceMs: 500,
    ...(options.trustedCa ? { trustedCa: options.trustedCa } : {}),
    ...(options.handshakeTimeoutMs === undefined ? {} : { handshakeTimeoutMs: options.handshakeTimeoutMs }),
  });
  const [plain, tls] = await proxy.listen([
    { host: '127.0.0.1', port: 0, ssl: false },
    { host: '127.0.0.1', port: 0, ssl: true },
  ]);
  t.after(async () => {
    await proxy.close();
    await health.close();
  });
  return { proxy, runtime, health, plainPort: plain!.port, tlsPort: tls!.port, attempts, events };
}

/**
 * Connects (plain, or TLS with `servername` verified against `ca`), sends `line`, and resolves
 * with everything received until the proxy or the target closes; rejects on a socket error.
 */
export function exchange(port: number, line: string, tls?: { servername: string; ca: string }): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = tls
      ? tlsConnect({ host: '127.0.0.1', port, servername: tls.servername, ca: [tls.ca] })
      : netConnect({ host: '127.0.0.1', port });
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => {
      received += d;
      // The echo answers the one line it got: half-close so the relay ends cleanly.
      if (received.endsWith(line)) socket.end();
    });
    socket.once(tls ? 'secureConnect' : 'connect', () => socket.write(line));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}
