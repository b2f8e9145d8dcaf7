import { createSecureServer, createServer, type Http2SecureServer, type Http2Server, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { CertificateStore, PemPair } from '../tls/index.ts';
import { MIN_TLS_VERSION } from '../tls/index.ts';
import type { GrpcProxy } from './grpc-proxy.ts';

export type GrpcServerOptions = {
  /** h2 with ALPN and the SNI certificate store; else h2c (prior knowledge). */
  readonly ssl: boolean;
  /** The node default certificate (clients without SNI). */
  readonly defaultCertificate: PemPair;
  /** The current configuration's certificates (read per handshake, so reloads apply). */
  readonly certificates: () => CertificateStore;
};

/**
 * The 'stream' listener of an HTTP/2 server whose calls go to `proxy`. `port` is the listener
 * port the client reached (routes with `host:port` hosts match on it).
 */
export function grpcStreamListener(proxy: GrpcProxy, ssl: boolean, port: () => number): (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void {
  return (stream, headers) => {
    const socket = stream.session?.socket;
    proxy.handleStream(stream, headers, {
      scheme: ssl ? 'https' : 'http',
      port: port(),
      sni: ssl ? ((socket as TLSSocket | undefined)?.servername || undefined) : undefined,
      remoteAddress: socket?.remoteAddress ?? '',
    });
  };
}

/**
 * An HTTP/2 server of its own (not listening yet) whose calls go to `proxy`: cleartext h2c for
 * `grpc` routes, or TLS with ALPN `h2` and certificates chosen by SNI for `grpcs` routes.
 * To serve gRPC on the HTTP proxy's own listeners instead, see shareListenerWithGrpc.
 */
export function createGrpcServer(proxy: GrpcProxy, options: GrpcServerOptions): Http2Server | Http2SecureServer {
  const server: Http2Server | Http2SecureServer = options.ssl
    ? createSecureServer({
        cert: options.defaultCertificate.certPem,
        key: options.defaultCertificate.keyPem,
        minVersion: MIN_TLS_VERSION,
        ALPNProtocols: ['h2'],
        SNICallback: (servername, cb) => cb(null, options.certificates().find(servername)),
      })
    : createServer();
  server.on('stream', grpcStreamListener(proxy, options.ssl, () => (server.address() as AddressInfo | null)?.port ?? 0));
  // A broken client session is the client's problem, never the process's.
  server.on('sessionError', () => undefined);
  return server;
}
