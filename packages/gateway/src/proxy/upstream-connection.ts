import type { Socket } from 'node:net';
import { HTTPParser, type LlhttpParser, type OnHeadersComplete } from './http-parser.ts';

/** The request/response exchange currently using a connection (a ProxyExchange). */
export interface ExchangeSink {
  /** The connection is ready for a request (new and connected, or taken from the pool). */
  onUpstreamConnected(conn: UpstreamConnection): void;
  /** A final (non-1xx) response head; return 1 when the response has no body (HEAD). */
  onResponseHead(status: number, statusMessage: string, rawHeaders: string[]): number;
  /** Body bytes: the parser's own copy, never a view of the read buffer (kept as it is). */
  onResponseBody(chunk: Buffer): void;
  /** Everything one read delivered has been parsed (and the response is not complete yet). */
  onReadParsed(): void;
  onResponseEnd(): void;
  /** Connect error, reset, premature close, invalid response, or a timeout (`timedOut`). */
  onUpstreamFailure(conn: UpstreamConnection, timedOut: boolean, error: Error | undefined): void;
}

/** Where a connection goes back to when its response is complete. */
export interface ConnectionOwner {
  release(conn: UpstreamConnection): void;
  forget(conn: UpstreamConnection): void;
}

/**
 * One keep-alive connection to an upstream address, its response framed by llhttp. Callback
 * style on purpose: this is the proxy hot path (bench/gateway/run.ts).
 */
export class UpstreamConnection {
  readonly socket: Socket;
  readonly poolKey: string;
  readonly #owner: ConnectionOwner;
  readonly #parser: LlhttpParser;
  /** The exchange using the connection; undefined while idle. */
  sink: ExchangeSink | undefined;
  /** Served at least one response before: a failure before any byte may be a stale socket. */
  reused = false;
  /** Response bytes arrived for the current exchange. */
  received = false;
  /** The whole request (head and body) was written: only then may the socket be reused. */
  requestDone = false;
  connected = false;
  #headers: string[] = [];
  #keepAlive = false;
  #informational = false;
  #closed = false;
  /** A second response arrived in the same read (no request was sent for it). */
  #broken = false;
  #timeoutMs = -1;

  /**
   * `sharedReadBuffer`: the socket reads into a buffer shared by the pool (net `onread`); nothing
   * keeps a view of it, as llhttp copies body chunks out (src/proxy/http-parser.test.ts).
   * Otherwise stream reads.
   */
  constructor(owner: ConnectionOwner, poolKey: string, socket: Socket, sink: ExchangeSink, sharedReadBuffer: boolean) {
    this.#owner = owner;
    this.poolKey = poolKey;
    this.socket = socket;
    this.sink = sink;
    const parser = new HTTPParser();
    parser.initialize(HTTPParser.RESPONSE, {}, 0, 0);
    parser[HTTPParser.kOnHeaders] = this.#onHeaders;
    parser[HTTPParser.kOnHeadersComplete] = this.#onHeadersComplete;
    parser[HTTPParser.kOnBody] = this.#onBody;
    parser[HTTPParser.kOnMessageComplete] = this.#onMessageComplete;
    this.#parser = parser;
    if (!sharedReadBuffer) socket.on('data', this.#onData);
    socket.on('end', this.#onEnd);
    socket.on('close', this.#onClose);
    socket.on('error', this.#onError);
    socket.on('timeout', this.#onTimeout);
  }

  /** Socket inactivity timeout for the current phase (connect, write, read, idle). */
  setTimeout(ms: number): void {
    if (ms !== this.#timeoutMs) {
      this.#timeoutMs = ms;
      this.socket.setTimeout(ms);
    }
  }

  /** Takes the connection for a new exchange (from the pool). */
  activate(sink: ExchangeSink): void {
    this.sink = sink;
    this.received = false;
    this.requestDone = false;
  }

  /** Closes the connection without telling the current exchange (it is the one asking). */
  destroy(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.sink = undefined;
    // The parser is not closed here: this may run inside one of its callbacks; GC frees it.
    this.socket.destroy();
    this.#owner.forget(this);
  }

  #fail(timedOut: boolean, error: Error | undefined): void {
    const sink = this.sink;
    this.destroy();
    sink?.onUpstreamFailure(this, timedOut, error);
  }

  /** net `onread` callback: `n` bytes in the pool's shared buffer; true = keep reading. */
  onRead(n: number, buffer: Buffer): boolean {
    this.#onData(buffer.subarray(0, n));
    return true;
  }

  readonly #onData = (data: Buffer): void => {
    if (this.sink === undefined) {
      // Bytes on an idle connection: the upstream broke framing; never reuse it.
      this.destroy();
      return;
    }
    this.received = true;
    const sink = this.sink;
    const r = this.#parse(data);
    if (r === undefined) return;
    if (typeof r !== 'number') this.#fail(false, r);
    else if (this.#broken) this.destroy();
    else if (this.sink === sink) sink.onReadParsed();
  };

  /**
   * Runs llhttp over `data` (undefined: EOF). Its callbacks run the exchange's code, inside this
   * socket's read: a throw there would reach the event loop and end the process, so it fails
   * this connection instead (the exchange answers or cuts its client: ProxyExchange) and
   * yields undefined.
   */
  #parse(data: Buffer | undefined): number | Error | undefined {
    // The exchange the read is for: a complete response lets go of it before its last callback.
    const sink = this.sink;
    try {
      return data === undefined ? this.#parser.finish() : this.#parser.execute(data);
    } catch (err) {
      this.destroy();
      sink?.onUpstreamFailure(this, false, err instanceof Error ? err : new Error(String(err)));
      return undefined;
    }
  }

  readonly #onEnd = (): void => {
    if (this.sink !== undefined) {
      // EOF ends a read-until-close body; anywhere else it is a premature close.
      const r = this.#parse(undefined);
      if (r !== undefined && typeof r !== 'number') this.#fail(false, r);
    }
    if (this.sink !== undefined) this.#fail(false, new Error('upstream closed the connection'));
    else this.destroy();
  };

  readonly #onClose = (): void => {
    if (this.sink !== undefined) this.#fail(false, new Error('upstream connection closed'));
    else this.destroy();
  };

  readonly #onError = (err: Error): void => {
    this.#fail(false, err);
  };

  readonly #onTimeout = (): void => {
    if (this.sink !== undefined) this.#fail(true, new Error('upstream timed out'));
    else this.destroy();
  };

  readonly #onHeaders = (headers: string[]): void => {
    // llhttp hands over long header lists in parts before headers-complete.
    for (const h of headers) this.#headers.push(h);
  };

  readonly #onHeadersComplete: OnHeadersComplete = (_maj, _min, headers, _m, _u, status, message, _upgrade, keepAlive) => {
    let raw = headers;
    if (raw === undefined) {
      raw = this.#headers;
      this.#headers = [];
    }
    // 1xx (100 Continue, 103 Early Hints) precede the real response: not relayed (no upgrade support).
    if (this.sink === undefined) {
      this.#broken = true;
      return 1;
    }
    this.#informational = status < 200;
    if (this.#informational) return 0;
    this.#keepAlive = keepAlive;
    return this.sink?.onResponseHead(status, message, raw) ?? 0;
  };

  readonly #onBody = (chunk: Buffer): void => {
    this.sink?.onResponseBody(chunk);
  };

  readonly #onMessageComplete = (): void => {
    if (this.#informational) {
      this.#informational = false;
      return;
    }
    const sink = this.sink;
    if (sink === undefined) return;
    this.sink = undefined;
    const reusable = this.#keepAlive && this.requestDone && !this.#closed;
    if (reusable) {
      this.reused = true;
      this.#owner.release(this);
    } else {
      this.destroy();
    }
    sink.onResponseEnd();
  };
}
