import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net';
import { createServer as createTlsServer, type SecureContext, type TlsOptions } from 'node:tls';
import type { Address, Random } from './balancer/index.ts';
import type { GatewayConfig, ListenAddress } from './config.ts';
import { EMPTY_SNAPSHOT, parseDeclarativeConfig } from './declarative/index.ts';
import type { Snapshot } from './declarative/types.ts';
import { REDIS_COUNTERS } from './plugins/index.ts';
import { GrpcProxy, shareListenerWithGrpc, type SharedGrpc } from './grpc/index.ts';
import { createProxyHandler, type RequestHandler } from './proxy/create-proxy-handler.ts';
import { createHttp2HttpSide } from './http2/index.ts';
import { LEAN_TIMEOUTS, LeanHttp1 } from './http1/index.ts';
import type { ProxyHooks } from './proxy/proxy-hooks.ts';
import { UpstreamPool } from './proxy/upstream-pool.ts';
import { withoutUnderscoreNames } from './proxy/underscore-headers.ts';
import { Runtime } from './runtime.ts';
import { StreamProxy, type StreamEvent } from './stream/index.ts';
import { closeOnClientError, loadDefaultCertificate, MIN_TLS_VERSION } from './tls/index.ts';
import { fastAccept } from './listen/fast-accept.ts';
import { listenOn } from './listen/listen-on.ts';
import { CLIENT_DEADLINES, type ClientDeadlines } from './listen/client-deadlines.ts';

/** What a gateway process is built from besides its config (tests and the cli inject these). */
export type GatewayDeps = {
  /** The configuration to serve; default: config.declarativeConfig parsed, or no entities. */
  readonly snapshot?: Snapshot;
  /** Where health checks, metrics and logs observe each attempt (HTTP, gRPC and stream alike). */
  readonly hooks?: ProxyHooks;
  readonly random?: Random;
  readonly isAddressHealthy?: (upstreamName: string, address: Address) => boolean;
  /** Configuration problems that do not stop a load, and stream connections dropped. */
  readonly warn?: (message: string) => void;
  /** Told about each stream listener bound. */
  readonly info?: (message: string) => void;
  /** Called with each proxy listener's server before it accepts connections (metrics count them). */
  readonly configureListener?: (server: Server, address: ListenAddress) => void;
  /**
   * HTTP/1.1 from clients: the lean leg (default, src/http1/) or node:http's server, kept for
   * the differential test that holds the two to the same behaviour (nginx_proxy_underscores_in_headers=off
   * applies to the lean leg and HTTP/2 only).
   */
  readonly clientLeg?: 'lean' | 'node';
  /**
   * How long a whole client request (head and body) may take to arrive, on HTTP/1.1 and for each
   * HTTP/2 stream (default LEAN_TIMEOUTS.requestTimeout); tests shorten it.
   */
  readonly requestTimeoutMs?: number;
  /** nginx's send_timeout for clients (default SEND_TIMEOUT_MS); tests shorten it. */
  readonly sendTimeoutMs?: number;
  /** How long clients may hold connections without a request (default CLIENT_DEADLINES; tests shorten them). */
  readonly deadlines?: Partial<ClientDeadlines>;
};

/** A gateway's data plane in one process: the runtime and every listener its config names. */
export type Gateway = {
  readonly runtime: Runtime;
  readonly pool: UpstreamPool;
  readonly grpc: GrpcProxy;
  readonly stream: StreamProxy;
  /** Starts the proxy and stream listeners; resolves with the proxy addresses bound (real ports for port 0). */
  listen(): Promise<ListenAddress[]>;
  /** The stream listeners bound by listen() (real ports for port 0). */
  streamAddresses(): readonly ListenAddress[];
  /** Stops accepting, lets in-flight requests finish (up to shutdownGraceMs), closes everything. */
  close(): Promise<void>;
};

/** Reads and parses the declarative configuration a GatewayConfig names. */
export async function loadSnapshot(config: GatewayConfig): Promise<Snapshot> {
  if (config.declarativeConfig === undefined) return EMPTY_SNAPSHOT;
  const text = await readFile(config.declarativeConfig, 'utf8');
  return parseDeclarativeConfig(text, {
    fileName: config.declarativeConfig,
    ...(config.plugins === undefined ? {} : { enabledPlugins: config.plugins }),
    ...(config.redis === undefined ? {} : { redisDefaults: config.redis }),
  });
}

const describe = (e: StreamEvent): string =>
  `stream ${e.event}: client ${e.client}${e.protocol ? ` ${e.protocol}` : ''}${e.sni ? ` sni ${e.sni}` : ''}${e.route ? ` route ${e.route}` : ''}${e.detail ? ` (${e.detail})` : ''}`;

/**
 * Builds the data plane of one gateway process (not listening yet) for the listeners its config
 * names, as Kong serves them: `proxy_listen` takes http/https requests and grpc/grpcs calls
 * (h2c told apart by its preface, h2 offered by ALPN to server names grpcs routes name), and
 * `stream_listen` tcp, tls and tls_passthrough connections. Every protocol shares the runtime's
 * routers, balancers, certificates and the hooks; listen() and close() cover every listener.
 */
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
  const hooks = deps.hooks ?? {};
  const ctx = { pool, hooks, realIp: config.realIp, sendTimeoutMs: deps.sendTimeoutMs };
  const getState = () => runtime.state;
  const grpc = new GrpcProxy({ getState, hooks, realIp: config.realIp });
  const deadlines: ClientDeadlines = { ...CLIENT_DEADLINES, ...deps.deadlines };
  const stream = new StreamProxy({
    getState, hooks, log: (e) => deps.warn?.(describe(e)), shutdownGraceMs: config.shutdownGraceMs, handshakeTimeoutMs: deadlines.tlsHandshakeMs,
  });
  const servers: Server[] = [];
  const nodeServers: HttpServer[] = [];
  const shared: SharedGrpc[] = [];
  let streamBound: ListenAddress[] = [];

  const lean = deps.clientLeg !== 'node';
  // nginx_proxy_underscores_in_headers=off: such fields are ignored as each leg parses a head.
  const headerFilter = config.underscoresInHeaders === false ? withoutUnderscoreNames : undefined;
  const leanSides: LeanHttp1[] = [];
  const requestTimeout = deps.requestTimeoutMs ?? LEAN_TIMEOUTS.requestTimeout;

  async function listenOne(address: ListenAddress): Promise<ListenAddress> {
    const tlsOptions: TlsOptions = {
      cert: defaultCertificate.certPem,
      key: defaultCertificate.keyPem,
      minVersion: MIN_TLS_VERSION,
      handshakeTimeout: deadlines.tlsHandshakeMs,
      SNICallback: (servername: string, cb: (err: Error | null, ctx?: SecureContext) => void) => cb(null, runtime.state.certificates.find(servername)),
    };
    // Bound once listening (the handler needs the real port); no request arrives before.
    let handler: RequestHandler = () => undefined;
    let server: Server;
    let nodeHttp: HttpServer | undefined;
    if (lean) {
      // A plain connection gets TCP_NODELAY from its responses, as nginx gives it (LeanResponse).
      server = address.ssl ? createTlsServer({ ...tlsOptions, noDelay: true }) : createNetServer();
      const side = new LeanHttp1((req, res) => handler(req as never, res as never), { ...LEAN_TIMEOUTS, requestTimeout }, headerFilter);
      leanSides.push(side);
      side.attach(server, address.ssl);
    } else {
      nodeHttp = address.ssl ? createHttpsServer(tlsOptions) : createHttpServer();
      // Kong/nginx keep client connections 60 s (keepalive_timeout); node's default is 5 s.
      nodeHttp.keepAliveTimeout = 60_000;
      server = nodeHttp;
    }
    if (address.ssl) closeOnClientError(server);
    servers.push(server);
    deps.configureListener?.(server, address);
    // node:http2's compatibility request and response carry every member the handler reads
    // (docs/gateway-config.md, "HTTP/2"), in their HTTP/1.1 shape (src/http2/).
    const http2 = address.ssl && address.http2 === true ? createHttp2HttpSide((req, res) => handler(req as never, res as never), headerFilter, requestTimeout) : undefined;
    shared.push(shareListenerWithGrpc(server, grpc, address.ssl, http2, deadlines.http2IdleMs));
    await listenOn(server, address);
    // Accepted sockets built without net's options path (listen/fast-accept.ts): the lean leg's.
    if (lean) fastAccept(server);
    const port = (server.address() as AddressInfo).port;
    handler = createProxyHandler(getState, ctx, { scheme: address.ssl ? 'https' : 'http', port });
    if (nodeHttp !== undefined) {
      nodeHttp.on('request', handler);
      // Expect: 100-continue is answered by the proxy itself once it reads the body (RFC 9110
      // §10.1.1), so a request refused from its head alone (request-size-limiting's 417, an
      // authentication plugin's 401) gets its answer without a 100 first, as from nginx.
      nodeHttp.on('checkContinue', handler);
      nodeServers.push(nodeHttp);
    }
    return { host: address.host, port, ssl: address.ssl, ...(address.http2 === true ? { http2: true } : {}) };
  }

  return {
    runtime,
    pool,
    grpc,
    stream,
    streamAddresses: () => streamBound,
    async listen() {
      const bound: ListenAddress[] = [];
      for (const address of config.proxyListen) bound.push(await listenOne(address));
      streamBound = await stream.listen(config.streamListen ?? []);
      for (const a of streamBound) deps.info?.(`stream listening on ${a.host}:${a.port}${a.ssl ? ' ssl' : ''}`);
      return bound;
    },
    async close() {
      // Each listener's close() drains (docs/gateway-config.md, "Graceful stop"): sockets not
      // served yet are cut, HTTP/2 sessions get GOAWAY, the lean sides close idle connections.
      const closing = servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
      for (const s of nodeServers) s.closeIdleConnections();
      // After the grace period, whatever is still open is cut: HTTP/1.1 connections, HTTP/2
      // sessions with a stream still open, handshakes that never finished.
      const timer = setTimeout(() => {
        for (const s of nodeServers) s.closeAllConnections();
        for (const side of leanSides) side.closeAllConnections();
        for (const s of shared) s.destroy();
      }, config.shutdownGraceMs);
      await Promise.all([...closing, stream.close()]);
      clearTimeout(timer);
      pool.close();
      grpc.close();
      await REDIS_COUNTERS.close();
    },
  };
}
