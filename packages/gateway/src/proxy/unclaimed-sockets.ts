import type { Socket } from 'node:net';

/**
 * How long a connection that becomes HTTP after a listener's drain began has to be served: a TLS
 * handshake whose server flight was already sent gets this long to finish, and then (on either
 * HTTP side) this long to send its one request before it is closed. Its client may already count
 * itself connected (TLS 1.3: the server's Finished comes before the client's) and send a request
 * that must be answered; one that sends nothing must not hold the stop until the grace cut.
 */
export const DRAIN_LATE_MS = 1000;

/**
 * The sockets a proxy listener has accepted that no protocol serves yet: a TLS connection in its
 * handshake, a plain one whose first bytes have not come (h2c is told apart by them). Neither
 * HTTP side sees them, yet net.Server's close() waits for every one (docs/gateway-config.md,
 * "Graceful stop"). On drain those whose client has been told nothing (no byte written to it: no
 * TLS ServerHello yet, or a plain socket) are cut at once, as nginx closes them on a graceful
 * stop; a handshake the server has answered gets DRAIN_LATE_MS to finish.
 */
export class UnclaimedSockets {
  /** By remote address and port: unique among a listener's open connections, and O(1) to find. */
  readonly #sockets = new Map<string, Socket>();
  #draining = false;

  /** A socket the listener accepted (before its TLS handshake, or before its first bytes). */
  add(socket: Socket): void {
    if (this.#draining) {
      // node:cluster can still hand a worker a connection just after its listener closed.
      socket.destroy();
      return;
    }
    const key = keyOf(socket);
    this.#sockets.set(key, socket);
    socket.once('close', () => {
      if (this.#sockets.get(key) === socket) this.#sockets.delete(key);
    });
  }

  /**
   * The socket is now served by a protocol (it keeps running through a drain). A TLS socket
   * whose handshake just completed stands for the raw socket add() was given: the one with
   * the same remote address and port.
   */
  claim(socket: Socket): void {
    this.#sockets.delete(keyOf(socket));
  }

  /** The listener stops: see the class comment. */
  drain(): void {
    if (this.#draining) return;
    this.#draining = true;
    for (const [key, s] of this.#sockets) {
      if (s.bytesWritten === 0) {
        s.destroy();
        continue;
      }
      setTimeout(() => {
        if (this.#sockets.get(key) === s) s.destroy();
      }, DRAIN_LATE_MS).unref();
    }
  }

  /** Cuts every socket not served yet (the end of the grace period). */
  destroy(): void {
    for (const s of this.#sockets.values()) s.destroy();
  }
}

function keyOf(socket: Socket): string {
  return `${socket.remoteAddress}|${socket.remotePort}`;
}
