import type { RealIpSettings } from './real-ip.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Http2ServerRequest, ServerHttp2Stream } from 'node:http2';
import { performance } from 'node:perf_hooks';
import type { HashRequest } from '../balancer/index.ts';
import type { GatewayErrorCode } from '../errors.ts';
import { VIA } from './kong-headers.ts';
import { PeerAttempts } from './peer-attempts.ts';
import type { ProxyHooks } from './proxy-hooks.ts';
import { addressHostHeader, type ProxyRoute } from './proxy-route.ts';
import { HOP_BY_HOP_RESPONSE, type ScannedRequestHeaders } from './scan-request-headers.ts';
import { sendKongResponse, sendProxyError } from './send-proxy-error.ts';
import { expectsContinue } from './expects-continue.ts';
import type { ExchangeSink, UpstreamConnection } from './upstream-connection.ts';
import type { UpstreamEndpoint, UpstreamPool } from './upstream-pool.ts';
import { serverNameFor } from './server-name.ts';
import { writeLatin1 } from './write-latin1.ts';
import { SEND_TIMEOUT_MS, watchSend, type SendQueue } from './send-watch.ts';
import { openBodyFilter, RequestLogEntry, ResponseHead, runHeaderFilter, runLogPhase, SIZE_LIMIT_MESSAGE, wantsLog, type BodyTransform, type PluginContext } from '../plugins/index.ts';

// RFC 9110 §7.6.1: fields named in Connection are hop-by-hop as well.
function listedFields(value: string, into: string[] | undefined): string[] | undefined {
  // The usual values name no field (every keep-alive upstream response carries one).
  if (value === 'keep-alive' || value === 'close' || value === 'Keep-Alive' || value === 'Close') return into;
  for (const token of value.split(',')) {
    const t = token.trim().toLowerCase();
    if (t !== '' && t !== 'close' && t !== 'keep-alive') (into ??= []).push(t);
  }
  return into;
}

function withoutFields(headers: string[], names: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < headers.length; i += 2) {
    if (!names.includes(headers[i]!.toLowerCase())) out.push(headers[i]!, headers[i + 1]!);
  }
  return out;
}

/** Per-process parts every exchange shares. */
export type ProxyContext = {
  readonly pool: UpstreamPool;
  readonly hooks: ProxyHooks;
  /** Kong's real_ip settings; absent = the socket's address is the client. */
  readonly realIp?: RealIpSettings | undefined;
  /** nginx send_timeout: a client that takes nothing for this long is cut (default SEND_TIMEOUT_MS). */
  readonly sendTimeoutMs?: number | undefined;
};

/** What the request handler resolved before forwarding. */
export type ExchangeRequest = {
  readonly target: ProxyRoute;
  readonly headers: ScannedRequestHeaders;
  /** Request line for the upstream: `METHOD /path?query HTTP/1.1\r\n`. */
  readonly requestLine: string;
  /** Header lines after Host, framing included, ending with the blank line. */
  readonly tail: string;
  readonly requestId: string;
  readonly startedAt: number;
  /** Raw path and query (without `?`) and regex route captures: what hash_on reads. */
  readonly path?: string;
  readonly query?: string;
  readonly captures?: Readonly<Record<string, string | undefined>> | undefined;
  /** The consumer the route's plugins identified (hash_on consumer). */
  readonly consumerId?: string | undefined;
  /** The client address as the real_ip settings decide (nginx $remote_addr). */
  readonly clientIp: string;
  /** A request body a plugin rewrote (sent instead of the client's, which was read already). */
  readonly body?: Buffer | undefined;
  /** The Host header a plugin chose (request-transformer's replace of host). */
  readonly hostOverride?: string | undefined;
  /** request-size-limiting's bound on a streamed body, and the status refusing more. */
  readonly bodyLimit?: { readonly bytes: number; readonly status: number } | undefined;
  /** Set when the route's plugins have header_filter, body_filter or log hooks. */
  readonly plugins?: PluginContext | undefined;
  readonly scheme?: 'http' | 'https';
};

// A first body chunk up to this size is held until the end of its read: a response that ends
// in the same read then goes out as one string (head + body) in a single write, instead of
// node's head/body/terminator writev (bench/gateway/run.ts: CPU µs per request).
const HOLD_MAX = 16 * 1024;

// Ours, not Kong's (Kong buffers a body to transform without bound). Sending the body untouched
// instead would silently skip the configured edits (a remove.json meant to keep a field from
// clients), and waiting for room would hold the upstream connection and the client for as long
// as others hold theirs: a refusal the client may retry, as for request bodies.
const RESPONSES_BUSY_MESSAGE = 'The gateway is holding too many response bodies; retry later';

/**
 * One proxied request: pick a peer, send the request, relay the response, retry on connect
 * errors and timeouts (nginx `proxy_next_upstream error timeout`; peer-attempts.ts picks,
 * counts the retries and reports), answer Kong's errors otherwise. Callback style, one object
 * per request: the hot path (bench/gateway/run.ts).
 */
export class ProxyExchange implements ExchangeSink {
  readonly #ctx: ProxyContext;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #x: ExchangeRequest;
  readonly #hasBody: boolean;
  readonly #attempts: PeerAttempts;
  /** Where the current attempt goes. */
  #peer: UpstreamEndpoint | undefined;
  #hostHeader = '';
  #conn: UpstreamConnection | undefined;
  #bodyStarted = false;
  #responded = false;
  #done = false;
  #upstreamLatency: number | undefined;
  #upstreamStartedAt = 0;
  /** The first body chunk of the current read, not written yet (latin1: byte for byte). */
  #held: string | undefined;
  /** Body bytes were written to the client already: nothing more is held. */
  #streaming = false;
  #onClientDrain: (() => void) | undefined;
  #onUpstreamDrain: (() => void) | undefined;
  /** The plugins' body_filter for this response, when one transforms it. */
  #bodyFilter: BodyTransform | undefined;
  /** Body bytes sent to the client, and request body bytes received (the log phase's sizes). */
  #bytesOut = 0;
  #bytesIn = 0;
  #upstreamStatus: number | undefined;
  /** What the client reads from: its HTTP/2 stream, or its connection (send_timeout watches it). */
  readonly #clientQueue: SendQueue;
  /** The head held back while a body filter holds the whole body (BodyTransform.holdsBody). */
  #deferredHead: { readonly status: number; readonly message: string | undefined; readonly headers: string[] } | undefined;

  constructor(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, x: ExchangeRequest) {
    this.#ctx = ctx;
    this.#req = req;
    this.#res = res;
    this.#x = x;
    this.#hasBody = x.body === undefined && (x.headers.chunked || x.headers.contentLength > 0);
    // The hash input is made only for consistent-hashing upstreams, on the first pick.
    this.#attempts = new PeerAttempts(x.target, ctx.hooks, x.target.balancer?.hashSettings === undefined ? undefined : () => this.#hashRequest());
    // Over HTTP/2 the request's own stream is what the client can close (its connection carries
    // others). Told by the stream itself, not the version: node:http hands over an HTTP/1.1
    // connection's `GET / HTTP/2.0` with httpVersionMajor 2 (it crashed the process here).
    const stream = (req as unknown as Partial<Http2ServerRequest>).stream;
    watchClientSocket(stream ?? req.socket, this);
    this.#clientQueue = stream ?? req.socket;
  }

  /** Sends the first attempt. */
  start(): void {
    // Defence in depth (plugin-context's setUpstreamHost checks it): a Host breaking the head line is never written.
    const host = this.#x.hostOverride;
    if (host !== undefined && /[\r\n\0]/.test(host)) return this.#fail('UNEXPECTED');
    this.#attempt(false);
  }

  /** `sameAddress`: a reused keep-alive connection went stale, so the same peer is tried again. */
  #attempt(sameAddress: boolean): void {
    const t = this.#x.target;
    if (!sameAddress) {
      const peer = this.#attempts.pick();
      if (peer === undefined) {
        this.#fail('NO_PEER');
        return;
      }
      this.#peer = peer;
      if (this.#x.hostOverride !== undefined) this.#hostHeader = this.#x.hostOverride;
      else if (t.route.preserve_host && this.#x.headers.host !== undefined) this.#hostHeader = this.#x.headers.host;
      else this.#hostHeader = t.upstream !== undefined ? addressHostHeader(t.upstream, peer, t.service.protocol) : t.endpointHostHeader;
    }
    this.#upstreamStartedAt = performance.now();
    this.#ctx.pool.acquire(this.#peer!, t.tls, t.service.connect_timeout, this, sameAddress, t.tls && serverNameFor(this.#hostHeader));
  }

  onUpstreamConnected(conn: UpstreamConnection): void {
    if (this.#done) {
      conn.destroy();
      return;
    }
    this.#conn = conn;
    const service = this.#x.target.service;
    const head = this.#x.requestLine + 'Host: ' + this.#hostHeader + '\r\n' + this.#x.tail;
    if (!this.#hasBody) {
      conn.requestDone = true;
      conn.setTimeout(service.read_timeout);
      // latin1: node decoded the client's bytes as latin1, so this writes them back unchanged.
      writeLatin1(conn.socket, head);
      if (this.#x.body !== undefined) {
        this.#bytesIn = this.#x.body.length;
        conn.socket.write(this.#x.body);
      }
      return;
    }
    // The body is streamed, never buffered: once it starts flowing the request cannot be retried.
    conn.setTimeout(service.write_timeout);
    writeLatin1(conn.socket, head);
    this.#bodyStarted = true;
    if (!this.#res.headersSent && expectsContinue(this.#req)) this.#res.writeContinue();
    // Bound here, not as class fields: most requests have no body (bench/gateway/run.ts).
    this.#req.on('data', (chunk: Buffer) => this.#onRequestData(chunk));
    this.#req.on('end', () => this.#onRequestEnd());
  }

  #onRequestData(chunk: Buffer): void {
    this.#bytesIn += chunk.length;
    const conn = this.#conn;
    if (conn === undefined || this.#done) return;
    const limit = this.#x.bodyLimit;
    if (limit !== undefined && this.#bytesIn > limit.bytes) {
      this.#overLimit(conn, limit.status);
      return;
    }
    const socket = conn.socket;
    let ok: boolean;
    if (this.#x.headers.chunked) {
      socket.cork();
      socket.write(chunk.length.toString(16) + '\r\n');
      socket.write(chunk);
      ok = socket.write('\r\n');
      socket.uncork();
    } else {
      ok = socket.write(chunk);
    }
    if (!ok) {
      this.#req.pause();
      this.#onUpstreamDrain ??= () => this.#req.resume();
      socket.once('drain', this.#onUpstreamDrain);
    }
  }

  /**
   * The streamed body crossed request-size-limiting's bound: the chunk that crossed it is not
   * sent, and the upstream connection (holding a partial request) is closed. Before the response
   * has started the client gets the plugin's refusal, and the connection is closed after it (the
   * rest of its body is never read); after, the response is cut off as an upstream failure
   * mid-response is (docs/gateway-plugins.md).
   */
  #overLimit(conn: UpstreamConnection, status: number): void {
    this.#conn = undefined;
    conn.destroy();
    if (this.#res.headersSent) {
      this.#finish();
      this.#res.destroy();
      return;
    }
    sendKongResponse(this.#res, status, SIZE_LIMIT_MESSAGE, this.#req.headers.accept, this.#x.requestId, { Connection: 'close' }, this.#x.plugins);
    this.#finish();
  }

  #onRequestEnd(): void {
    const conn = this.#conn;
    if (conn === undefined || this.#done) return;
    if (this.#x.headers.chunked) conn.socket.write('0\r\n\r\n');
    conn.requestDone = true;
    conn.setTimeout(this.#x.target.service.read_timeout);
  }

  onResponseHead(status: number, statusMessage: string, raw: string[]): number {
    this.#responded = true;
    this.#attempts.answered(status);
    const now = performance.now();
    this.#upstreamLatency = now - this.#upstreamStartedAt;
    let headers: string[] = [];
    let via: string | undefined;
    let connectionTokens: string[] | undefined;
    for (let i = 0; i < raw.length; i += 2) {
      const name = raw[i]!;
      const lower = name.toLowerCase();
      if (HOP_BY_HOP_RESPONSE.has(lower)) {
        if (lower === 'connection') connectionTokens = listedFields(raw[i + 1]!, connectionTokens);
        continue;
      }
      if (lower === 'via') {
        via = via === undefined ? raw[i + 1] : via + ', ' + raw[i + 1];
        continue;
      }
      headers.push(name, raw[i + 1]!);
    }
    if (connectionTokens !== undefined) headers = withoutFields(headers, connectionTokens);
    // Kong's header_filter: latency_tokens, server_tokens (Via) and X-Kong-Request-Id.
    headers.push(
      'Via', via === undefined ? VIA : via + ', ' + VIA,
      'X-Kong-Upstream-Latency', String(Math.round(now - this.#upstreamStartedAt)),
      'X-Kong-Proxy-Latency', String(Math.round(this.#upstreamStartedAt - this.#x.startedAt)),
      'X-Kong-Request-Id', this.#x.requestId,
    );
    const setCookie = this.#attempts.setCookie;
    if (setCookie !== undefined) headers.push('Set-Cookie', setCookie);
    const plugins = this.#x.plugins;
    if (plugins !== undefined) {
      this.#upstreamStatus = status;
      this.#writeFilteredHead(plugins, status, statusMessage, headers);
    } else {
      this.#writeHead(status, statusMessage, headers);
    }
    return this.#req.method === 'HEAD' ? 1 : 0;
  }

  // Kong's header_filter, then the body_filter opened for this response (a transformed body
  // loses its Content-Length: node then frames it chunked).
  #writeFilteredHead(plugins: PluginContext, status: number, statusMessage: string, headers: string[]): void {
    const head = new ResponseHead(status, headers, 'upstream');
    runHeaderFilter(plugins, head);
    if (this.#req.method !== 'HEAD') this.#bodyFilter = openBodyFilter(plugins, head);
    if (this.#bodyFilter !== undefined && this.#bodyFilter.passthrough !== true) head.remove('Content-Length');
    plugins.responseHeaders = head.headers;
    plugins.responseSize = head.byteLength();
    const filter = this.#bodyFilter;
    const message = head.status === status ? statusMessage : undefined;
    if (filter?.release !== undefined) {
      const release = filter.release.bind(filter);
      this.#res.once('close', () => this.#whenFlushed(release));
    }
    if (filter?.holdsBody === true) this.#deferredHead = { status: head.status, message, headers: head.headers };
    else this.#writeHead(head.status, message, head.headers);
  }

  /**
   * The head held back for a whole body goes out. Still without Content-Length, though the length
   * is known by now: Kong sends its head before the body_filter runs, so a transformed body is
   * framed chunked (test/plugins/response-transformer.test.ts).
   */
  #sendDeferredHead(): void {
    const head = this.#deferredHead;
    if (head === undefined) return;
    this.#deferredHead = undefined;
    this.#writeHead(head.status, head.message, head.headers);
  }

  /** `fn` once the client has every byte queued for it, or is gone: what a held body costs until then. */
  #whenFlushed(fn: () => void): void {
    const queue = this.#clientQueue;
    if (queue.destroyed || queue.writableLength === 0) {
      fn();
      return;
    }
    const done = (): void => {
      queue.off('drain', done);
      queue.off('close', done);
      fn();
    };
    queue.once('drain', done);
    queue.once('close', done);
  }

  /** nginx send_timeout: bytes wait for the client; it is cut if it takes none for that long. */
  #watchSend(): void {
    // Most answers leave nothing queued: no closure for them (every request ends here).
    if (this.#clientQueue.writableLength === 0) return;
    // With an error, so an HTTP/2 stream is reset as failed (INTERNAL_ERROR), not as complete.
    watchSend(this.#clientQueue, this.#ctx.sendTimeoutMs ?? SEND_TIMEOUT_MS, () => this.#res.destroy(new Error('send_timeout')));
  }

  /** A body filter could not hold the body (the process's budget is spent): 503, the upstream left. */
  /**
   * A body filter that holds the whole body could not: the process's budget is spent (503, retry)
   * or the body is bigger than it may hold (502, as nginx answers an upstream response it cannot
   * buffer). Either way the body is not sent without the edits the route configured.
   */
  #refuseHeldBody(tooLarge: boolean): void {
    const conn = this.#conn;
    this.#conn = undefined;
    conn?.destroy();
    this.#bodyFilter = undefined;
    this.#deferredHead = undefined;
    this.#abandon(() => {
      if (tooLarge) {
        this.#fail('BAD_GATEWAY');
        return;
      }
      sendKongResponse(this.#res, 503, RESPONSES_BUSY_MESSAGE, this.#req.headers.accept, this.#x.requestId, { 'Retry-After': '1' }, this.#x.plugins);
      this.#finish();
    });
  }

  /**
   * This runs inside the upstream parser's callback, where a throw would end the process:
   * node:http2 throws on a head it cannot send (http2-response-fields.ts makes the known cases
   * sendable; this is for the next one). Unsent, it is answered as nginx answers an upstream
   * head it cannot use, 502; its connection (mid-response) is closed.
   */
  #writeHead(status: number, statusMessage: string | undefined, headers: string[]): void {
    try {
      if (statusMessage === undefined) this.#res.writeHead(status, headers);
      else this.#res.writeHead(status, statusMessage, headers);
    } catch {
      const conn = this.#conn;
      this.#conn = undefined;
      conn?.destroy();
      this.#bodyFilter = undefined;
      this.#abandon(() => this.#fail('BAD_GATEWAY'));
    }
  }

  /**
   * Ends an exchange that cannot go on: Kong's error while no head is out, otherwise (or when
   * even that cannot be sent) the client's stream or connection is cut, as nginx does mid-response.
   */
  #abandon(answer: () => void): void {
    if (this.#done) return;
    if (!this.#res.headersSent) {
      try {
        answer();
        return;
      } catch {
        // Not even the error answer could be written: cut below.
      }
    }
    if (!this.#done) this.#finish();
    this.#res.destroy();
  }

  onResponseBody(chunk: Buffer): void {
    if (this.#done) return;
    const filter = this.#bodyFilter;
    if (filter !== undefined) {
      const out = filter.write(chunk);
      if (filter.refused === true) {
        this.#refuseHeldBody(filter.tooLarge === true);
        return;
      }
      if (out !== undefined && out.length > 0) {
        // A filter that stopped holding (the body grew past its bound) streams from here on.
        this.#sendDeferredHead();
        if (!this.#done) this.#writeBody(out);
      }
      return;
    }
    if (!this.#streaming && this.#held === undefined && chunk.length <= HOLD_MAX) {
      this.#held = chunk.toString('latin1');
      return;
    }
    this.#flushHeld();
    this.#writeBody(chunk);
  }

  onReadParsed(): void {
    this.#flushHeld();
  }

  #flushHeld(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    this.#writeBody(held);
  }

  #writeBody(chunk: Buffer | string): void {
    this.#streaming = true;
    // latin1 strings: one character per byte.
    this.#bytesOut += chunk.length;
    if (this.#done) return;
    if (!this.#res.write(chunk, 'latin1')) {
      this.#watchSend();
      const conn = this.#conn;
      if (conn === undefined) return;
      conn.socket.pause();
      this.#onClientDrain ??= () => this.#conn?.socket.resume();
      this.#res.once('drain', this.#onClientDrain);
    }
  }

  onResponseEnd(): void {
    // The response may end in the very read whose write hit client back-pressure: the upstream
    // socket is then paused, and must be resumed before it goes back to the keep-alive pool
    // (test/proxy/backpressure.test.ts).
    const conn = this.#conn;
    this.#conn = undefined;
    if (this.#onClientDrain !== undefined && conn !== undefined) {
      this.#res.off('drain', this.#onClientDrain);
      if (conn.socket.isPaused()) conn.socket.resume();
    }
    if (this.#done) return;
    const filter = this.#bodyFilter;
    if (filter !== undefined) {
      this.#bodyFilter = undefined;
      const last = filter.end();
      this.#sendDeferredHead();
      if (this.#done) return;
      if (last !== undefined) this.#bytesOut += last.length;
      this.#finish();
      this.#res.end(last);
      this.#watchSend();
      return;
    }
    const held = this.#held;
    if (held !== undefined) this.#bytesOut += held.length;
    this.#finish();
    if (held === undefined) {
      this.#res.end();
    } else {
      this.#held = undefined;
      this.#res.end(held, 'latin1');
    }
    this.#watchSend();
  }

  onUpstreamFailure(conn: UpstreamConnection, timedOut: boolean, error: Error | undefined): void {
    this.#conn = undefined;
    if (this.#done) return;
    // Kong handler.lua: a host that does not resolve is 503 "name resolution failed", no retry.
    const code = error !== undefined && 'code' in error ? String(error.code) : undefined;
    if (!conn.connected && (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA')) {
      this.#fail('NAME_RESOLUTION');
      return;
    }
    if (this.#responded) {
      // Mid-response: the client cannot be told otherwise; cut its connection as nginx does.
      this.#finish();
      this.#res.destroy();
      return;
    }
    // A kept-alive connection the upstream closed just as it was reused: not the target's fault.
    if (conn.reused && !conn.received && !timedOut && !this.#bodyStarted) {
      this.#attempt(true);
      return;
    }
    // The write timer ran out while the client's body was still arriving and nothing of it was
    // waiting to be written: the client stalled, not the target. nginx reads the body before it
    // picks a peer (request_buffering) and answers 408 from client_body_timeout, reporting no
    // attempt; reported here, a few stalled uploads marked every target down (a review).
    if (timedOut && this.#bodyStarted && !conn.requestDone && conn.socket.writableLength === 0) {
      this.#attempts.release();
      sendProxyError(this.#res, 'REQUEST_TIMEOUT', this.#req.headers.accept, this.#x.requestId, { Connection: 'close' }, this.#x.plugins);
      this.#finish();
      return;
    }
    // Once the body has started flowing the request cannot be sent again.
    if (this.#attempts.failed(timedOut ? 'timeout' : 'tcp_failure', !this.#bodyStarted)) {
      this.#attempt(false);
      return;
    }
    // nginx: a timeout is 504, a refused/reset/invalid upstream is 502.
    this.#fail(timedOut ? 'UPSTREAM_TIMEOUT' : 'BAD_GATEWAY');
  }

  #fail(code: GatewayErrorCode): void {
    sendProxyError(this.#res, code, this.#req.headers.accept, this.#x.requestId, undefined, this.#x.plugins);
    this.#finish();
  }

  /** The request is over (answered, failed or abandoned): release the address, report it. */
  #finish(clientClosed = false): void {
    this.#done = true;
    // The latency algorithm's sample: connect + response time, for attempts that got one.
    this.#attempts.release(this.#responded ? performance.now() - this.#upstreamStartedAt : undefined);
    // nginx logs 499 for a request whose client closed the connection first.
    if (this.#ctx.hooks.onRequestDone !== undefined || this.#x.plugins !== undefined) this.#report(clientClosed ? 499 : this.#res.statusCode);
  }

  #hashRequest(): HashRequest {
    const x = this.#x;
    return {
      clientIp: x.clientIp,
      headers: this.#req.headers,
      path: x.path ?? '/',
      query: x.query ?? '',
      captures: x.captures,
      consumerId: x.consumerId,
    };
  }

  /** Metrics, the access log and the plugins' log phase: once per request, only when one wants it. */
  #report(status: number): void {
    const x = this.#x;
    const done = {
      requestId: x.requestId,
      method: this.#req.method ?? 'GET',
      uri: this.#req.url ?? '/',
      clientIp: x.clientIp,
      status,
      source: this.#responded ? 'upstream' : 'kong',
      service: x.target.service,
      route: x.target.route,
      upstreamAddress: this.#attempts.address?.key,
      proxyLatencyMs: this.#upstreamStartedAt === 0 ? undefined : this.#upstreamStartedAt - x.startedAt,
      upstreamLatencyMs: this.#upstreamLatency,
      totalMs: performance.now() - x.startedAt,
    } as const;
    this.#ctx.hooks.onRequestDone?.(done);
    const plugins = x.plugins;
    if (plugins === undefined || !wantsLog(plugins)) return;
    // The gateway's own error answer sized itself in sendProxyError.
    const responseSize = this.#responded ? plugins.responseSize + this.#bytesOut : plugins.responseSize;
    runLogPhase(plugins, new RequestLogEntry(
      done, this.#req, this.#bytesIn, x.scheme ?? 'http', plugins.responseHeaders ?? [], responseSize, x.requestLine, this.#upstreamStatus, x.startedAt,
    ));
  }

  /** The client connection closed: called by the socket watcher for the exchange in flight. */
  onClientClose(): void {
    if (this.#done) return;
    // The client went away first: the upstream exchange is abandoned, its connection closed.
    this.#finish(true);
    const conn = this.#conn;
    this.#conn = undefined;
    conn?.destroy();
  }

  /** True once the response is complete or abandoned. */
  get done(): boolean {
    return this.#done;
  }
}

const kExchange = Symbol('signet.exchange');
type WatchedSocket = (Socket | ServerHttp2Stream) & { [kExchange]?: ProxyExchange };

function onWatchedSocketClose(this: WatchedSocket): void {
  const exchange = this[kExchange];
  this[kExchange] = undefined;
  exchange?.onClientClose();
}

/**
 * One 'close' listener per client connection rather than one per request: it aborts whichever
 * exchange is in flight when the client goes away.
 */
function watchClientSocket(socket: Socket | ServerHttp2Stream, exchange: ProxyExchange): void {
  const watched = socket as WatchedSocket;
  if (!(kExchange in watched)) watched.on('close', onWatchedSocketClose);
  watched[kExchange] = exchange;
}
