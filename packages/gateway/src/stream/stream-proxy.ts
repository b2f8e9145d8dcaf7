import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { ListenAddress } from '../config.ts';
import type { ProxyHooks } from '../proxy/proxy-hooks.ts';
import type { RuntimeState } from '../runtime.ts';
import { MIN_TLS_VERSION, TLS_HANDSHAKE_MS } from '../tls/index.ts';
import { connectTarget } from './connect-target.ts';
import { MAX_CLIENT_HELLO, parseClientHello } from './parse-client-hello.ts';
import type { StreamProtocol, StreamRequest } from './stream-router.ts';
import type { ProxyRoute } from '../proxy/proxy-route.ts';
import type { StreamState } from './compile-stream-state.ts';
import { ConnectionList } from '../listen/connection-list.ts';
import { fastAccept } from '../listen/fast-accept.ts';
import { listenOn } from '../listen/listen-on.ts';

/** Something worth a log line; the stream proxy has no response to put an error in. */
export type StreamEvent = {
  readonly event: 'no_route' | 'not_tls' | 'preread_timeout' | 'no_peer' | 'upstream_failed' | 'tls_handshake_failed';
  readonly client: string;
  readonly protocol?: StreamProtocol | undefined;
  readonly sni?: string | undefined;
  readonly route?: string | undefined;
  readonly detail?: string | undefined;
};

export type StreamProxyDeps = {
  /** The running configuration (read once per connection, so a reload never splits one). */
  readonly getState: () => RuntimeState;
  /** Passive health checks (the same hooks as the HTTP proxy). */
  readonly hooks?: ProxyHooks;
  readonly log?: (event: StreamEvent) => void;
  /** Extra trusted CAs (PEM) for `tls` services with tls_verify. */
  readonly trustedCa?: readonly string[];
  /** How long an ssl listener waits for the ClientHello (nginx preread_timeout, 30 s). */
  readonly prereadTimeoutMs?: number;
  /** How long a terminated tls connection's handshake may take (nginx ssl_handshake_timeout, 60 s). */
  readonly handshakeTimeoutMs?: number;
  /** How long close() lets connections run before cutting them. */
  readonly shutdownGraceMs?: number;
};

/**
 * Kong's stream proxy (stream_listen): a plain listener routes connections as `tcp`; an `ssl`
 * listener reads the ClientHello first, relays it untouched when a `tls_passthrough` route
 * takes its SNI, else terminates TLS with the SNI certificate store and routes as `tls`. The
 * connection is then balanced, retried and reported like a request (connect-target.ts) and
 * its bytes relayed both ways, half-closes included.
 */
export class StreamProxy {
  readonly #deps: StreamProxyDeps;
  readonly #servers: Server[] = [];
  // Not a Set: listen/connection-list.ts says why.
  readonly #sockets = new ConnectionList<Socket>();

  constructor(deps: StreamProxyDeps) {
    this.#deps = deps;
  }

  /** Starts the stream listeners; resolves with the addresses bound (real ports for port 0). */
  async listen(addresses: readonly ListenAddress[]): Promise<ListenAddress[]> {
    const bound: ListenAddress[] = [];
    for (const address of addresses) {
      // nginx stream tcp_nodelay is on by default: small writes go out at once.
      const server = createServer({ allowHalfOpen: true, noDelay: true }, (socket) => this.handle(socket, address.ssl));
      this.#servers.push(server);
      await listenOn(server, address);
      // Accepted sockets built without net's options path, as the HTTP listeners' (listen/fast-accept.ts).
      fastAccept(server);
      bound.push({ host: address.host, port: (server.address() as AddressInfo).port, ssl: address.ssl });
    }
    return bound;
  }

  /** Stops accepting; open connections get `shutdownGraceMs` (default 10 s) to finish. */
  async close(): Promise<void> {
    const closing = this.#servers.map((s) => new Promise<void>((resolve) => s.close(() => resolve())));
    const timer = setTimeout(() => {
      for (const s of this.#sockets.values()) s.destroy();
    }, this.#deps.shutdownGraceMs ?? 10_000);
    await Promise.all(closing);
    clearTimeout(timer);
  }

  /** Takes one accepted client connection (a listener's, or one handed over by another server). */
  handle(client: Socket, ssl: boolean): void {
    const entry = this.#sockets.add(client);
    client.once('close', () => this.#sockets.remove(entry));
    client.on('error', () => client.destroy());
    const runtime = this.#deps.getState();
    const state = runtime.stream;
    const base: StreamRequest = {
      protocol: 'tcp',
      sourceIp: client.remoteAddress ?? '',
      sourcePort: client.remotePort ?? 0,
      destinationIp: client.localAddress ?? '',
      destinationPort: client.localPort ?? 0,
      sni: undefined,
    };
    if (!ssl) {
      this.#route(client, client, state, base, undefined);
      return;
    }
    this.#preread(client, (hello, sni) => {
      const through = state.router.find({ ...base, protocol: 'tls_passthrough', sni });
      if (through !== undefined) {
        this.#relay(client, client, through.value, { ...base, protocol: 'tls_passthrough', sni }, hello);
        return;
      }
      const request: StreamRequest = { ...base, protocol: 'tls', sni };
      const match = state.router.find(request);
      if (match === undefined) return this.#drop(client, 'no_route', request);
      // Terminate: hand the bytes already read back to the socket, then TLS on top of it.
      client.unshift(hello);
      const secure = new TLSSocket(client, {
        isServer: true,
        secureContext: runtime.certificates.find(sni),
        minVersion: MIN_TLS_VERSION,
      });
      const failed = (detail: string): void => {
        clearTimeout(deadline);
        this.#deps.log?.({ event: 'tls_handshake_failed', client: base.sourceIp, protocol: 'tls', sni, detail });
        client.destroy();
      };
      // A bare TLSSocket has no handshake timer of its own (node:tls gives only a server's).
      const deadline = setTimeout(() => failed('handshake timed out'), this.#deps.handshakeTimeoutMs ?? TLS_HANDSHAKE_MS);
      client.once('close', () => clearTimeout(deadline));
      secure.once('secure', () => {
        clearTimeout(deadline);
        this.#relay(client, secure, match.value, request, undefined);
      });
      secure.on('error', (err: Error) => failed(err.message));
    });
  }

  /** Reads the ClientHello (nginx ssl_preread) without answering it. */
  #preread(client: Socket, then: (hello: Buffer, sni: string | undefined) => void): void {
    let buffered: Buffer = Buffer.alloc(0);
    const timer = setTimeout(() => {
      finish();
      this.#drop(client, 'preread_timeout', undefined);
    }, this.#deps.prereadTimeoutMs ?? 30_000);
    const finish = (): void => {
      clearTimeout(timer);
      client.off('data', onData);
      client.off('close', finish);
      client.pause();
    };
    const onData = (chunk: Buffer): void => {
      buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
      const r = parseClientHello(buffered);
      if (r.kind === 'need_more' && buffered.length <= MAX_CLIENT_HELLO + 5 * 8) return;
      finish();
      if (r.kind !== 'client_hello') {
        this.#drop(client, 'not_tls', undefined, r.kind === 'not_tls' ? r.reason : 'ClientHello too large');
        return;
      }
      then(buffered, r.serverName);
    };
    client.on('data', onData);
    client.once('close', finish);
  }

  #route(raw: Socket, client: Socket, state: StreamState, request: StreamRequest, first: Buffer | undefined): void {
    const match = state.router.find(request);
    if (match === undefined) return this.#drop(raw, 'no_route', request);
    this.#relay(raw, client, match.value, request, first);
  }

  #drop(client: Socket, event: StreamEvent['event'], request: StreamRequest | undefined, detail?: string): void {
    this.#deps.log?.({ event, client: client.remoteAddress ?? '', protocol: request?.protocol, sni: request?.sni, detail });
    client.destroy();
  }

  /** Connects the target, then relays bytes both ways (`first`: bytes already read from the client). */
  #relay(raw: Socket, client: Socket, target: ProxyRoute, request: StreamRequest, first: Buffer | undefined): void {
    const abort = new AbortController();
    const onGone = (): void => abort.abort();
    raw.once('close', onGone);
    void connectTarget(target, { hooks: this.#deps.hooks ?? {}, clientIp: request.sourceIp, trustedCa: this.#deps.trustedCa, signal: abort.signal }).then((result) => {
      raw.off('close', onGone);
      if (!result.ok) {
        if (result.reason === 'aborted') return;
        this.#deps.log?.({
          event: result.reason === 'no_peer' ? 'no_peer' : 'upstream_failed',
          client: request.sourceIp, protocol: request.protocol, sni: request.sni, route: target.route.name ?? target.route.id, detail: result.reason,
        });
        raw.destroy();
        return;
      }
      const upstream = result.socket;
      const upstreamEntry = this.#sockets.add(upstream);
      const release = (): void => {
        result.attempts.release();
        this.#sockets.remove(upstreamEntry);
      };
      // An error or an idle timeout cuts both sides; a close lets the other side finish writing.
      const abort = (): void => {
        release();
        upstream.destroy();
        client.destroy();
        raw.destroy();
      };
      upstream.on('error', abort);
      client.on('error', abort);
      upstream.once('close', () => {
        release();
        if (!client.destroyed) client.end();
      });
      raw.once('close', () => upstream.destroy());
      // nginx proxy_timeout: the longest a relay may sit idle in either direction.
      const idleMs = Math.max(target.service.read_timeout, target.service.write_timeout);
      upstream.setTimeout(idleMs, abort);
      client.setTimeout(idleMs, abort);
      if (first !== undefined) upstream.write(first);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  }
}
