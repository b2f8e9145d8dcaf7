import { buildGateway, type Gateway, type GatewayDeps } from './build-gateway.ts';
import type { GatewayConfig, ListenAddress } from './config.ts';
import { GrpcProxy, shareListenerWithGrpc, type SharedGrpc } from './grpc/index.ts';
import type { RuntimeState } from './runtime.ts';
import { StreamProxy, type StreamEvent } from './stream/index.ts';

export type StreamGatewayDeps = GatewayDeps & {
  /** Told about each stream listener bound. */
  readonly info?: (message: string) => void;
};

/** A gateway whose proxy listeners also serve gRPC, plus its stream listeners. */
export type StreamGateway = Gateway & {
  readonly stream: StreamProxy;
  readonly grpc: GrpcProxy;
  /** The stream listeners bound by listen() (real ports for port 0). */
  streamAddresses(): readonly ListenAddress[];
};

const describe = (e: StreamEvent): string =>
  `stream ${e.event}: client ${e.client}${e.protocol ? ` ${e.protocol}` : ''}${e.sni ? ` sni ${e.sni}` : ''}${e.route ? ` route ${e.route}` : ''}${e.detail ? ` (${e.detail})` : ''}`;

/**
 * buildGateway plus Kong's other proxy protocols: grpc/grpcs calls on the proxy listeners
 * (h2c by preface, h2 by ALPN for server names grpcs routes name) and the `stream_listen`
 * listeners (tcp, tls, tls_passthrough). All share the runtime's router state, balancers,
 * certificates and the passive-check hooks; listen() and close() cover every listener.
 */
export async function buildGatewayWithStreams(config: GatewayConfig, deps: StreamGatewayDeps = {}): Promise<StreamGateway> {
  // The gRPC proxy is needed while buildGateway sets up listeners; the runtime exists after.
  const built: { gateway?: Gateway } = {};
  const getState = (): RuntimeState => built.gateway!.runtime.state;
  const grpc = new GrpcProxy({ getState, ...(deps.hooks ? { hooks: deps.hooks } : {}) });
  const shared: SharedGrpc[] = [];
  const gateway = await buildGateway(config, {
    ...deps,
    configureListener: (server, address) => {
      deps.configureListener?.(server, address);
      shared.push(shareListenerWithGrpc(server, grpc, address.ssl));
    },
  });
  built.gateway = gateway;
  const stream = new StreamProxy({
    getState,
    ...(deps.hooks ? { hooks: deps.hooks } : {}),
    log: (e) => deps.warn?.(describe(e)),
    shutdownGraceMs: config.shutdownGraceMs,
  });
  let bound: ListenAddress[] = [];
  return {
    ...gateway,
    stream,
    grpc,
    streamAddresses: () => bound,
    async listen() {
      const proxy = await gateway.listen();
      bound = await stream.listen(config.streamListen ?? []);
      for (const a of bound) deps.info?.(`stream listening on ${a.host}:${a.port}${a.ssl ? ' ssl' : ''}`);
      return proxy;
    },
    async close() {
      for (const s of shared) s.close();
      await Promise.all([gateway.close(), stream.close()]);
      grpc.close();
    },
  };
}
