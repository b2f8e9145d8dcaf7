import { connect as netConnect } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { UpstreamConnection, type ConnectionOwner, type ExchangeSink } from './upstream-connection.ts';

/** Where to connect: one address of a target (a balancer Address fits), or a service's host:port. */
export type UpstreamEndpoint = {
  readonly host: string;
  readonly port: number;
  /** `host:port`: idle connections are kept per key (and per TLS-ness). */
  readonly key: string;
};

/**
 * TLS to the target for https services (Kong proxy_ssl_verify follows service.tls_verify), with
 * the client certificate for mutual TLS when the service or its upstream names one.
 */
export type UpstreamTls = {
  readonly rejectUnauthorized: boolean;
  readonly clientCertificate?: { readonly id: string; readonly cert: string; readonly key: string };
};

export type UpstreamPoolOptions = {
  /** Idle connections kept per address (Kong upstream_keepalive_pool_size, 512). */
  readonly maxIdlePerAddress?: number;
  /** Idle connections are closed after this (Kong upstream_keepalive_idle_timeout, 60 s). */
  readonly idleTimeoutMs?: number;
};

/**
 * Keep-alive connections to upstream addresses, most recently used first. Connections go back
 * only after a complete response to a completely written request.
 */
export class UpstreamPool implements ConnectionOwner {
  readonly #idle = new Map<string, UpstreamConnection[]>();
  readonly #all = new Set<UpstreamConnection>();
  readonly #maxIdle: number;
  readonly #idleTimeoutMs: number;
  readonly #readBuffer = Buffer.allocUnsafe(64 * 1024);

  constructor(options: UpstreamPoolOptions = {}) {
    this.#maxIdle = options.maxIdlePerAddress ?? 512;
    this.#idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  }

  /**
   * Hands `sink` a connection through `onUpstreamConnected` (at once for an idle one), or
   * reports the connect failure or timeout through `onUpstreamFailure`. `fresh` skips idle ones.
   */
  acquire(endpoint: UpstreamEndpoint, tls: UpstreamTls | undefined, connectTimeoutMs: number, sink: ExchangeSink, fresh = false, serverName?: string): void {
    // A verified and an unverified TLS connection to one address are not interchangeable.
    // Nor are connections made with different client certificates or server names (Kong keys
    // its upstream keepalive pools by address and SNI).
    const poolKey = tls === undefined
      ? endpoint.key
      : `${tls.rejectUnauthorized ? 'tls+verify' : 'tls'}${tls.clientCertificate ? `+${tls.clientCertificate.id}` : ''}:${serverName ?? ''}@${endpoint.key}`;
    if (!fresh) {
      const idle = this.#idle.get(poolKey);
      const conn = idle?.pop();
      if (conn !== undefined) {
        conn.activate(sink);
        sink.onUpstreamConnected(conn);
        return;
      }
    }
    const holder: { conn?: UpstreamConnection } = {};
    const socket = tls
      ? tlsConnect({
          host: endpoint.host,
          port: endpoint.port,
          // The caller's name (serverNameFor: the upstream Host, never an IP literal); none → no
          // SNI. Node verifies the certificate (tls_verify) against this name, else the address,
          // as nginx checks proxy_ssl_name.
          servername: serverName,
          rejectUnauthorized: tls.rejectUnauthorized,
          ...(tls.clientCertificate ? { cert: tls.clientCertificate.cert, key: tls.clientCertificate.key } : {}),
        })
      : netConnect({
          host: endpoint.host,
          port: endpoint.port,
          // Reads land in one buffer shared by every connection and go straight to llhttp,
          // skipping the Readable machinery (bench/gateway/run.ts: signet-w1 µs/req).
          onread: { buffer: this.#readBuffer, callback: (n: number, buf: Uint8Array) => holder.conn?.onRead(n, buf as Buffer) ?? true },
        });
    const conn = new UpstreamConnection(this, poolKey, socket, sink, tls === undefined);
    holder.conn = conn;
    this.#all.add(conn);
    conn.setTimeout(connectTimeoutMs);
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      socket.setNoDelay(true);
      conn.connected = true;
      const s = conn.sink;
      if (s !== undefined) s.onUpstreamConnected(conn);
    });
  }

  /** A connection whose exchange is complete: kept idle, or closed when the pool is full. */
  release(conn: UpstreamConnection): void {
    let idle = this.#idle.get(conn.poolKey);
    if (idle === undefined) {
      idle = [];
      this.#idle.set(conn.poolKey, idle);
    }
    if (idle.length >= this.#maxIdle) {
      conn.destroy();
      return;
    }
    conn.setTimeout(this.#idleTimeoutMs);
    idle.push(conn);
  }

  /** A connection that closed: dropped from the idle list. */
  forget(conn: UpstreamConnection): void {
    this.#all.delete(conn);
    const idle = this.#idle.get(conn.poolKey);
    if (idle === undefined) return;
    const i = idle.indexOf(conn);
    if (i !== -1) idle.splice(i, 1);
  }

  /** Idle connections per pool key (for tests and metrics). */
  idleCount(poolKey: string): number {
    return this.#idle.get(poolKey)?.length ?? 0;
  }

  /** Closes every connection, idle or busy. */
  close(): void {
    for (const conn of [...this.#all]) conn.destroy();
    this.#idle.clear();
  }
}
