/** Kong's stream proxy (stream_listen): tcp, tls (terminated) and tls_passthrough routes. */
export { StreamProxy, type StreamEvent, type StreamProxyDeps } from './stream-proxy.ts';
/** Stream routes matched on sources, destinations and snis with Kong's priorities. */
export { StreamRouter, isStreamRoute, type StreamProtocol, type StreamRequest, type StreamRouterEntry } from './stream-router.ts';
/** The ClientHello reader behind tls_passthrough (server name and ALPN, without terminating). */
export { parseClientHello, MAX_CLIENT_HELLO, type ClientHelloResult } from './parse-client-hello.ts';
/** Balanced connect with retries and passive reports, shared by stream connections. */
export { connectTarget, type ConnectResult, type ConnectOptions } from './connect-target.ts';
/** Compiles a configuration's stream routes against the runtime's balancers. */
export { compileStreamState, type StreamState } from './compile-stream-state.ts';
