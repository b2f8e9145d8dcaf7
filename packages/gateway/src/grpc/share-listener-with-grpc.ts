import { constants, createServer, type Http2Session, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import type { AddressInfo, Server, Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { grpcStreamListener } from './create-grpc-server.ts';
import type { GrpcProxy } from './grpc-proxy.ts';
import { HTTP2_IDLE_MS, HTTP2_LIMITS, HTTP2_RESET_BURST, HTTP2_RESET_WINDOW_MS, type Http2StreamDispatch } from '../http2/index.ts';
import { DRAIN_LATE_MS, UnclaimedSockets } from '../proxy/unclaimed-sockets.ts';
import { drainOnClose } from '../proxy/drain-on-close.ts';

// RFC 9113 §3.4: an h2c client with prior knowledge opens with this preface; HTTP/1.1 reserves
// the PRI method for it, so its first bytes tell the two apart.
const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

function startsLikePreface(chunk: Buffer): boolean {
  const n = Math.min(chunk.length, PREFACE.length);
  return n > 0 && chunk.compare(PREFACE, 0, n, 0, n) === 0;
}

type AlpnCallback = (arg: { servername: string; protocols: string[] }) => string | undefined;

/**
 * The HTTP/2 side of a shared listener and the sockets no protocol serves yet. close() (also run
 * by the listener's own close()) drains: the sockets not served yet are cut (UnclaimedSockets),
 * the client sessions get GOAWAY and their connections are cut once their last stream ends.
 * destroy() cuts everything left, also the connections of clients that never close their side.
 */
export type SharedGrpc = { close(): void; destroy(): void };

/**
 * Serves gRPC on an HTTP/1.1 proxy listener (Kong serves grpc routes on proxy_listen): on a
 * plain server an h2c connection is recognised by its preface (looked for only
 * while the configuration has a grpc route); on a TLS server ALPN offers `h2` to
 * clients whose server name a grpcs route names (`snis`/`hosts`), `http/1.1` to everyone else
 * (so browsers on HTTP routes keep HTTP/1.1). With `http` (the listener's `http2` flag), ALPN
 * offers `h2` to every client and the HTTP/2 streams that are not gRPC calls (Kong tells them
 * apart by their `application/grpc` content type) go to the HTTP proxy. HTTP/2 connections go
 * to a session bounded by HTTP2_LIMITS; every other connection reaches the server's own
 * HTTP/1.1 handling unchanged. Every HTTP/2 session, gRPC or not, is closed once it has had no
 * stream open for `idleMs` (watchSession). Call before the server accepts, after its HTTP/1.1 side is
 * attached; the server must not set ALPNProtocols (node allows either that or an ALPN callback).
 * The server's close() drains this side first (node:cluster's worker disconnect calls it before
 * the worker's own shutdown runs, src/cluster/worker.ts).
 */
export function shareListenerWithGrpc(
  server: Server & { headersTimeout?: number },
  proxy: GrpcProxy,
  ssl: boolean,
  http?: Http2StreamDispatch,
  idleMs: number = HTTP2_IDLE_MS,
): SharedGrpc {
  const h2 = createServer(HTTP2_LIMITS);
  const grpcStream = grpcStreamListener(proxy, ssl, () => (server.address() as AddressInfo | null)?.port ?? 0);
  if (http === undefined) {
    h2.on('stream', grpcStream);
  } else {
    h2.on('stream', (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => {
      if (headers['content-type']?.startsWith('application/grpc') === true) grpcStream(stream, headers);
      else http(stream, headers, flags, rawHeaders);
    });
  }
  h2.on('sessionError', () => undefined);
  const unclaimed = new UnclaimedSockets();
  let draining = false;
  const sessions = new Set<Http2Session>();
  // The socket of the session being created: node:http2 makes a session and emits 'session'
  // synchronously within the 'connection' event toHttp2 emits (the session only proxies it).
  let arriving: Socket | undefined;
  h2.on('session', (s: Http2Session) => {
    sessions.add(s);
    s.once('close', () => sessions.delete(s));
    const socket = arriving;
    watchSession(s, idleMs, () => {
      s.close();
      if (socket !== undefined) cutOnceEnded(socket);
    });
    if (draining) closeLate(s);
  });
  if (ssl) {
    // node:tls reads the server's ALPNCallback for each connection (tls.createServer option).
    (server as Server & { ALPNCallback?: AlpnCallback }).ALPNCallback = ({ servername, protocols }) => {
      if (protocols.includes('h2') && (http !== undefined || proxy.offersHttp2(servername))) return 'h2';
      return protocols.includes('http/1.1') ? 'http/1.1' : undefined;
    };
  }
  // A closed session only ends its socket: one whose client never answers with its own FIN
  // stays half-open, so the sockets are kept to be cut on a drain or destroy().
  const h2Sockets = new Set<Socket>();
  const toHttp2 = (socket: Socket): void => {
    // HTTP/2 interleaves small frames (the HTTP/1.1 side sets it per response, LeanResponse).
    socket.setNoDelay(true);
    h2Sockets.add(socket);
    socket.once('close', () => h2Sockets.delete(socket));
    if (draining) cutOnceEnded(socket);
    arriving = socket;
    h2.emit('connection', socket);
    arriving = undefined;
  };
  const event = ssl ? 'secureConnection' : 'connection';
  const http1 = server.listeners(event) as ((socket: Socket) => void)[];
  server.removeAllListeners(event);
  const toHttp1 = (socket: Socket): void => {
    for (const listener of http1) listener.call(server, socket);
  };
  if (ssl) server.on('connection', (raw: Socket) => unclaimed.add(raw));
  server.on(event, (socket: Socket) => {
    if (ssl) {
      unclaimed.claim(socket);
      if ((socket as TLSSocket).alpnProtocol === 'h2') toHttp2(socket);
      else toHttp1(socket);
      return;
    }
    // Without grpc routes nothing is sniffed: the HTTP path stays exactly as it was.
    if (!proxy.takesH2c()) {
      toHttp1(socket);
      return;
    }
    unclaimed.add(socket);
    // Until the first bytes arrive neither protocol owns the socket: bound the wait here (as
    // node:http's headersTimeout would), so idle connections cannot pile up.
    const idle = (): void => {
      socket.destroy();
    };
    socket.setTimeout(server.headersTimeout || 60_000, idle);
    socket.once('data', (first: Buffer) => {
      unclaimed.claim(socket);
      socket.setTimeout(0);
      socket.off('timeout', idle);
      socket.pause();
      socket.unshift(first);
      if (startsLikePreface(first)) {
        // node:http2 takes bytes already buffered on the socket before reading from it.
        toHttp2(socket);
      } else {
        toHttp1(socket);
        // The HTTP/1.1 side adds its 'data' listener to a socket it expects flowing: undo the pause.
        socket.resume();
      }
    });
  });
  const drain = (): void => {
    if (draining) return;
    draining = true;
    unclaimed.drain();
    for (const socket of h2Sockets) cutOnceEnded(socket);
    for (const s of sessions) s.close();
  };
  drainOnClose(server, drain);
  return {
    close: drain,
    destroy() {
      unclaimed.destroy();
      for (const s of sessions) s.destroy();
      for (const socket of h2Sockets) socket.destroy();
    },
  };
}

/**
 * A closed session ends its socket once its last bytes are out, and node:http2 waits for the
 * client's own end before it lets the socket close; the listener's close() waits for it. On a
 * drain the socket goes as soon as the gateway's side has ended.
 */
function cutOnceEnded(socket: Socket): void {
  if (socket.writableFinished) socket.destroy();
  else socket.once('finish', () => socket.destroy());
}

/**
 * A session that began after the drain did (its handshake was under way): it is served one
 * stream, then GOAWAY (node lets that stream finish), or closed after DRAIN_LATE_MS without one.
 */
function closeLate(session: Http2Session): void {
  const timer = setTimeout(() => session.close(), DRAIN_LATE_MS);
  timer.unref();
  session.once('stream', () => {
    clearTimeout(timer);
    session.close();
  });
}

/**
 * Per session: a client that resets more than HTTP2_RESET_BURST streams within
 * HTTP2_RESET_WINDOW_MS has its connection cut (CVE-2023-44487, "rapid reset": each request
 * costs the gateway work, its reset costs the client nothing; node:http2's own guard answers
 * GOAWAY later and leaves the connection open). A session that has had no stream open for
 * `idleMs` is closed by `closeIdle` (GOAWAY, then its connection cut), from its first bytes on:
 * nginx's client_header_timeout bounds the preface and first request, keepalive_timeout the
 * wait between requests, as on an idle HTTP/1.1 connection. One with a stream open is left to
 * it (a long gRPC call, a slow upstream: each has its timeouts).
 */
function watchSession(session: Http2Session, idleMs: number, closeIdle: () => void): void {
  let open = 0;
  let resets = 0;
  let windowStart = 0;
  session.on('stream', (stream: ServerHttp2Stream) => {
    open += 1;
    stream.once('close', () => {
      open -= 1;
      if (stream.rstCode === constants.NGHTTP2_NO_ERROR) return;
      const now = Date.now();
      if (now - windowStart > HTTP2_RESET_WINDOW_MS) {
        windowStart = now;
        resets = 0;
      }
      resets += 1;
      if (resets > HTTP2_RESET_BURST) session.destroy();
    });
  });
  session.setTimeout(idleMs, () => {
    if (open === 0) closeIdle();
  });
}
