/** Kong's grpc/grpcs services: calls routed on `/package.Service/Method`, relayed over HTTP/2 with trailers. */
export { GrpcProxy, type GrpcCallInfo, type GrpcProxyDeps } from './grpc-proxy.ts';
/** An h2c or h2 (ALPN, SNI certificates) server whose calls go to a GrpcProxy. */
export { createGrpcServer, grpcStreamListener, type GrpcServerOptions } from './create-grpc-server.ts';
/** gRPC ↔ HTTP status mappings (passive checks, gateway errors). */
export { GRPC_STATUS, grpcStatusOfHttpStatus, httpStatusOfGrpcStatus } from './grpc-status.ts';
/** Compiles a configuration's grpc/grpcs routes for the router. */
export { compileGrpcState, type GrpcState } from './compile-grpc-state.ts';
/** HTTP/2 sessions to targets, one per address. */
export { Http2SessionPool, SessionError, type SessionFailure, type SessionTls } from './http2-session-pool.ts';
/** gRPC on the HTTP proxy's own listeners: h2c by preface, h2 by ALPN, HTTP/1.1 untouched. */
export { shareListenerWithGrpc, type SharedGrpc } from './share-listener-with-grpc.ts';
