import type { Server, Socket } from 'node:net';

/**
 * How long a client's TLS handshake may take: nginx bounds it with client_header_timeout on
 * http listeners and ssl_handshake_timeout on stream ones, 60 s both (Kong sets neither).
 */
export const TLS_HANDSHAKE_MS = 60_000;

/**
 * For a TLS listener (node:tls or node:https): node:tls reports a handshake that outlives `handshakeTimeout` only as 'tlsClientError' and
 * leaves the socket open until a listener closes it: a client could hold connections with a
 * ClientHello and silence. Every client error before the handshake is over closes the socket
 * (node closes it itself on the others; closing twice is harmless).
 */
export function closeOnClientError(server: Server): void {
  server.on('tlsClientError', (_err: Error, socket: Socket) => socket.destroy());
}
