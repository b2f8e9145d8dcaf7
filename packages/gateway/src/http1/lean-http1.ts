import type { Server, Socket } from 'node:net';
import { ConnectionList, type ListEntry } from '../listen/connection-list.ts';
import { drainOnClose } from '../proxy/drain-on-close.ts';
import { coarseClock, LeanConnection, type HeaderFilter, type LeanHandler, type LeanTimeouts } from './lean-connection.ts';

/** node:http's defaults, except keep-alive: Kong/nginx keep client connections 60 s (keepalive_timeout). */
export const LEAN_TIMEOUTS: LeanTimeouts = { headersTimeout: 60_000, requestTimeout: 300_000, keepAliveTimeout: 60_000 };

// How often deadlines are checked: a connection lives at most this much past its timeout.
const SWEEP_MS = 1000;

/**
 * The lean HTTP/1.1 side of a proxy listener (docs/gateway-config.md, "Client leg"): attach it
 * to the listener, or give it each accepted socket (a plain one, or a TLS one after its
 * handshake) through serve(). It keeps the
 * connections for the listener's shutdown and checks their deadlines once a second, instead of
 * a timer per connection or per request.
 */
export class LeanHttp1 {
  readonly #handler: LeanHandler;
  readonly #timeouts: LeanTimeouts;
  readonly #headerFilter: HeaderFilter | undefined;
  readonly #connections = new ConnectionList<LeanConnection>();
  #sweep: NodeJS.Timeout | undefined;
  #draining = false;

  /** `headerFilter`: what each head's header list becomes before the handler sees it (underscores_in_headers off). */
  constructor(handler: LeanHandler, timeouts: LeanTimeouts = LEAN_TIMEOUTS, headerFilter?: HeaderFilter) {
    this.#handler = handler;
    this.#timeouts = timeouts;
    this.#headerFilter = headerFilter;
  }

  /** Serves HTTP/1.1 on an accepted connection (TCP_NODELAY: as its responses need it, LeanResponse). */
  readonly serve = (socket: Socket): void => {
    coarseClock.now = Date.now();
    // 'close' (and so #forget) comes on a later tick: the entry exists by then.
    const conn = new LeanConnection(socket, this.#handler, this.#timeouts, () => this.#forget(entry), this.#isDraining, this.#headerFilter);
    const entry = this.#connections.add(conn);
    this.#sweep ??= setInterval(this.#check, SWEEP_MS).unref();
  };

  /**
   * Serves a listener's connections (`tls`: after their handshake), and makes its close() drain
   * first (drainOnClose), as node:http's close() closes idle connections.
   */
  attach(server: Server, tls: boolean): void {
    server.on(tls ? 'secureConnection' : 'connection', this.serve);
    drainOnClose(server, () => this.drain());
  }

  /** Connections open now. */
  get size(): number {
    return this.#connections.size;
  }

  /**
   * The listener stops: idle connections are closed now, the others after the response in
   * progress (it says `Connection: close`), as nginx does on a graceful shutdown.
   */
  drain(): void {
    this.#draining = true;
    this.closeIdleConnections();
  }

  /** Closes the connections with no request in progress. */
  closeIdleConnections(): void {
    for (const c of this.#connections.values()) if (c.idle) c.destroy();
  }

  /** Cuts every connection (the end of a shutdown's grace period). */
  closeAllConnections(): void {
    for (const c of this.#connections.values()) c.destroy();
  }

  readonly #isDraining = (): boolean => this.#draining;

  readonly #forget = (entry: ListEntry<LeanConnection>): void => {
    this.#connections.remove(entry);
    if (this.#connections.size === 0 && this.#sweep !== undefined) {
      clearInterval(this.#sweep);
      this.#sweep = undefined;
    }
  };

  readonly #check = (): void => {
    const now = Date.now();
    coarseClock.now = now;
    for (const c of this.#connections.values()) if (c.deadline !== 0 && c.deadline <= now) c.expire();
  };
}
