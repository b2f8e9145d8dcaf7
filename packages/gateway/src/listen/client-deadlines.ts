import { HTTP2_IDLE_MS } from '../http2/index.ts';
import { TLS_HANDSHAKE_MS } from '../tls/index.ts';

/**
 * How long a client may hold a proxy or stream connection on which it is not making a request:
 * nginx's deadlines (tests shorten them, GatewayDeps.deadlines).
 */
export type ClientDeadlines = {
  /** A TLS handshake, on https proxy listeners and on stream tls termination. */
  readonly tlsHandshakeMs: number;
  /**
   * An HTTP/2 session with no stream open: from its first bytes (the preface and the first
   * request, nginx client_header_timeout) and between requests (keepalive_timeout).
   */
  readonly http2IdleMs: number;
};

export const CLIENT_DEADLINES: ClientDeadlines = { tlsHandshakeMs: TLS_HANDSHAKE_MS, http2IdleMs: HTTP2_IDLE_MS };
