import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Address, Random } from './balancer/index.ts';
import type { GatewayConfig, ListenAddress } from './config.ts';
import { EMPTY_SNAPSHOT, parseDeclarativeConfig } from './declarative/index.ts';
import type { Snapshot } from './declarative/types.ts';
import { createProxyHandler } from './proxy/create-proxy-handler.ts';
import type { ProxyHooks } from './proxy/proxy-hooks.ts';
import { UpstreamPool } from './proxy/upstream-pool.ts';
import { Runtime } from './runtime.ts';
import { loadDefaultCertificate, MIN_TLS_VERSION } from './tls/index.ts';

/** What a gateway process is built from besides its config (tests and the cli inject these). */
export type GatewayDeps = {
  /** The configuration to serve; default: config.declarativeConfig parsed, or no entities. */
  readonly snapshot?: Snapshot;
  /** Where health checks observe each attempt. */
  readonly hooks?: ProxyHooks;
  readonly random?: Random;
  readonly isAddressHealthy?: (upstreamName: string, address: Address) => boolean;
  readonly warn?: (message: string) => void;
  /**
   * Called with each proxy listener's server before it accepts connections: lets another
   * protocol share the listener (grpc/ share-listener-with-grpc.ts).
   */
  readonly configureListener?: (server: Server, address: ListenAddress) => void;
  /** ALPN protocols offered by `ssl` listeners (e.g. ['h2', 'http/1.1'] for gRPC); default none. */
  readonly alpnProtocols?: readonly string[];
};

/** A gateway's data plane in one process: the runtime and its proxy listeners. */
export type Gateway = {
  readonly runtime: Runtime;
  readonly pool: UpstreamPool;
  /** Starts the proxy listeners; resolves with the addresses bound (real ports for port 0). */
  listen(): Promise<ListenAddress[]>;
  /** Stops accepting, lets in-flight requests finish (up to shutdownGraceMs), closes everything. */
  close(): Promise<void>;
};

/** Reads and parses the declarative configuration a GatewayConfig names. */
export async function loadSnapshot(config: GatewayConfig): Promise<Snapshot> {
  if (config.declarativeConfig === undefined) return EMPTY_SNAPSHOT;
  const text = await readFile(config.declarativeConfig, 'utf8');
  return parseDeclarativeConfig(text, { fileName: config.declarativeConfig, ...(config.plugins === undefined ? {} : { enabledPlugins: config.plugins }) });
}

/** Builds the data plane of one gateway process (not listening yet). */
export async function buildGateway(config: GatewayConfig, deps: GatewayDeps = {}): Promise<Gateway> {
  const snapshot = deps.snapshot ?? (await loadSnapshot(config));
  const defaultCertificate = loadDefaultCertificate(config.sslCert);
  const runtime = new Runtime(snapshot, {
    defaultCertificate,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.isAddressHealthy ? { isAddressHealthy: deps.isAddressHealthy } : {}),
    ...(deps.warn ? { warn: deps.warn } : {}),
  });
  const pool = new UpstreamPool();
  const ctx = { pool, hooks: deps.hooks ?? {} };
  const getState = () => runtime.state;
  const servers: Server[] = [];

  async function listenOne(address: ListenAddress): Promise<ListenAddress> {
    const server: Server = address.ssl
      ? createHttpsServer({
          cert: defaultCertificate.certPem,
          key: defaultCertificate.keyPem,
          minVersion: MIN_TLS_VERSION,
          SNICallback: (servername, cb) => cb(null, runtime.state.certificates.find(servername)),
          ...(deps.alpnProtocols ? { ALPNProtocols: [...deps.alpnProtocols] } : {}),
        })
      : createHttpServer();
    // Kong/nginx keep client connections 60 s (keepalive_timeout); node's default is 5 s.
    server.keepAliveTimeout = 60_000;
    servers.push(server);
    deps.configureListener?.(server, address);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(address.port, address.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const port = (server.address() as AddressInfo).port;
    server.on('request', createProxyHandler(getState, ctx, { scheme: address.ssl ? 'https' : 'http', port }));
    return { host: address.host, port, ssl: address.ssl };
  }

  return {
    runtime,
    pool,
    async listen() {
      const bound: ListenAddress[] = [];
      for (const address of config.proxyListen) bound.push(await listenOne(address));
      return bound;
    },
    async close() {
      const closing = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      for (const s of servers) s.closeIdleConnections();
      const timer = setTimeout(() => {
        for (const s of servers) s.closeAllConnections();
      }, config.shutdownGraceMs);
      await Promise.all(closing);
      clearTimeout(timer);
      pool.close();
    },
  };
}
