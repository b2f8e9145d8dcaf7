import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { HTTPParser, type LlhttpParser } from '../proxy/http-parser.ts';
import { LeanRequest, type RequestOwner } from './lean-request.ts';
import { LeanResponse, type ResponseOwner } from './lean-response.ts';
import { DRAIN_LATE_MS } from '../proxy/unclaimed-sockets.ts';
import { readInto } from './read-into.ts';
import { writesSettled } from '../proxy/write-latin1.ts';

const { methods } = createRequire(import.meta.url)('_http_common') as { methods: readonly string[] };

/** Handles one request: the proxy's handler, which takes node's request/response shapes. */
export type LeanHandler = (req: LeanRequest, res: LeanResponse) => void;

/** What a request head's raw header list becomes before the request is made (fields ignored, as nginx ignores some). */
export type HeaderFilter = (raw: string[]) => string[];

/** Timeouts of the client leg, as node:http's server names them (ms). */
export type LeanTimeouts = {
  /** A request head must be complete this long after its first byte (slowloris). */
  readonly headersTimeout: number;
  /** A whole request (head and body) must arrive within this. */
  readonly requestTimeout: number;
  /** An idle keep-alive connection is closed after this. */
  readonly keepAliveTimeout: number;
  /** Lingering close (nginx's lingering_timeout, lingering_time): quiet this long, or this long in all. Defaults 5 s, 30 s. */
  readonly lingerTimeout?: number;
  readonly lingerTime?: number;
};

// node's answers when no 'clientError' listener is set (lib/_http_server.js socketOnError).
const CLIENT_ERRORS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';
const VERSION_NOT_SUPPORTED = 'HTTP/1.1 505 HTTP Version Not Supported\r\nConnection: close\r\n\r\n';
const UNEXPECTED_BODY = '{\n  "message":"An unexpected error occurred"\n}';

function hostCount(raw: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') count++;
  }
  return count;
}

/**
 * RFC 9112 §3.2.2: a proxy that receives an absolute-form target ignores Host and uses the
 * target's authority, as nginx's $host does (Kong routes on it). The head as sent when the
 * target is no http(s) URL.
 */
function withTargetAuthority(raw: string[], target: string): string[] {
  let authority: string;
  try {
    const u = new URL(target);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return raw;
    authority = u.host;
  } catch {
    return raw;
  }
  const out = raw.slice();
  for (let i = 0; i < out.length; i += 2) {
    const name = out[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      out[i + 1] = authority;
      return out;
    }
  }
  out.push('Host', authority);
  return out;
}

function ignoreError(): void {
  // 'close' follows and ends the connection's requests (#onClose).
}

// nginx's lingering_timeout and lingering_time (its defaults).
const LINGER_TIMEOUT_MS = 5_000;
const LINGER_TIME_MS = 30_000;

/** A parsed request waiting for the responses before it (pipelining), or a parse error to answer in turn. */
type Pending = { readonly req: LeanRequest; readonly keepAlive: boolean } | { readonly error: string };

// Every connection of the process reads into this one buffer: a read is parsed to the end before
// the next read happens, and nothing keeps a view of it (llhttp hands over body chunks as copies).
const SHARED_READ = Buffer.allocUnsafe(64 * 1024);

const FREE_PARSERS: LlhttpParser[] = [];
const MAX_FREE_PARSERS = 1000;
const PARSER_RESOURCE = {};

function notInUse(): void {
  // A pooled parser executes nothing.
}

/**
 * A parser going back to the pool lets go of its connection: its callbacks held the whole
 * connection (socket, requests, exchange) alive until the parser was taken again, and so
 * through young-generation GCs into the old generation (docs/benchmarks.md, "Lean client leg").
 */
function releasedParser(parser: LlhttpParser): LlhttpParser {
  parser[HTTPParser.kOnMessageBegin] = notInUse;
  parser[HTTPParser.kOnHeaders] = notInUse;
  parser[HTTPParser.kOnHeadersComplete] = notInUse;
  parser[HTTPParser.kOnBody] = notInUse;
  parser[HTTPParser.kOnMessageComplete] = notInUse;
  return parser;
}

/** A coarse clock for deadlines, read per request without a system call (set by the server's sweep). */
export const coarseClock = { now: Date.now() };

/**
 * One client connection of the lean HTTP/1.1 leg: llhttp (node's own parser, strict as node:http
 * runs it) frames requests; each is handed to the handler in order, one at a time: a pipelined
 * request waits, parsed and with its body held, until the response before it is complete, and
 * the socket stops reading while too much waits. Framing errors, oversized heads and timeouts
 * are answered as node:http answers them, after the responses already owed.
 */
export class LeanConnection implements RequestOwner, ResponseOwner {
  readonly socket: Socket;
  readonly #handler: LeanHandler;
  readonly #headerFilter: HeaderFilter | undefined;
  readonly #timeouts: LeanTimeouts;
  readonly #parser: LlhttpParser;
  readonly #onGone: (conn: LeanConnection) => void;
  /** The request being answered, and its response. */
  #req: LeanRequest | undefined;
  #res: LeanResponse | undefined;
  #queue: Pending[] = [];
  /** Header fields and URL parts llhttp hands over before headers-complete (long heads). */
  #headerParts: string[] = [];
  #urlPart = '';
  /** The request whose body is being parsed (the current one or a queued one). */
  #parsing: LeanRequest | undefined;
  /** A message has started (its first byte) and not completed. */
  #inMessage = false;
  /** When the current phase must be over (0: none): head, body, or idle keep-alive. */
  deadline: number;
  #deadlineKind: 'head' | 'body' | 'idle' = 'head';
  #bodyPaused = false;
  #queuePaused = false;
  /** No more requests are read: the connection closes after the responses owed. */
  #closing = false;
  #closed = false;
  #connectRequest = false;
  /** Lingering after the last answer (#lingerThenDestroy): when it ends at the latest (0: not lingering). */
  #lingerUntil = 0;
  /** Bytes came after a request that asked to close: the client is still sending. */
  #sentMore = false;

  readonly #draining: () => boolean;
  /** What a keep-alive response says of the connection (the same for all its responses). */
  readonly #keepAliveFields: string;

  constructor(socket: Socket, handler: LeanHandler, timeouts: LeanTimeouts, onGone: (conn: LeanConnection) => void, draining: () => boolean, headerFilter?: HeaderFilter) {
    this.socket = socket;
    this.#headerFilter = headerFilter;
    this.#draining = draining;
    this.#handler = handler;
    this.#timeouts = timeouts;
    this.#onGone = onGone;
    this.#keepAliveFields = 'Connection: keep-alive\r\nKeep-Alive: timeout=' + Math.floor(timeouts.keepAliveTimeout / 1000) + '\r\n';
    this.deadline = coarseClock.now + timeouts.headersTimeout;
    if (draining()) {
      // Served after the listener's drain began (its TLS handshake was under way): one request,
      // if it comes soon, answered with `Connection: close`; else closed as an idle one.
      this.#deadlineKind = 'idle';
      this.deadline = coarseClock.now + DRAIN_LATE_MS;
    }
    const parser = FREE_PARSERS.pop() ?? new HTTPParser();
    parser.initialize(HTTPParser.REQUEST, PARSER_RESOURCE, 0, 0);
    // The callbacks are arrows made here, not arrow class fields: under tsx (esbuild keepNames)
    // each arrow field gets its name set by Object.defineProperty per instance, ~0.3 µs apiece
    // on every new connection; an arrow assigned in the constructor is left alone.
    parser[HTTPParser.kOnMessageBegin] = () => this.#onMessageBegin();
    parser[HTTPParser.kOnHeaders] = (headers: string[], url: string) => this.#onHeaders(headers, url);
    parser[HTTPParser.kOnHeadersComplete] = (
      major: number, minor: number, headers: string[] | undefined, method: number, url: string | undefined,
      status: unknown, message: unknown, upgrade: boolean, keepAlive: boolean,
    ) => this.#onHeadersComplete(major, minor, headers, method, url, status, message, upgrade, keepAlive);
    parser[HTTPParser.kOnBody] = (chunk: Buffer) => this.#onBody(chunk);
    parser[HTTPParser.kOnMessageComplete] = () => this.#onMessageComplete();
    this.#parser = parser;
    const shared = readInto(socket, SHARED_READ, (n: number, buffer: Buffer) => {
      this.#onData(buffer.subarray(0, n));
      return true;
    });
    if (!shared) socket.on('data', (data: Buffer) => this.#onData(data));
    socket.on('end', () => this.#onEnd());
    socket.on('close', () => this.#onClose());
    socket.on('error', ignoreError);
  }

  /** No request in progress and none waiting (server.closeIdleConnections). */
  get idle(): boolean {
    return this.#req === undefined && this.#queue.length === 0 && !this.#inMessage;
  }

  /** Called by the server's sweep once `deadline` has passed. */
  expire(): void {
    if (this.#deadlineKind === 'idle' || this.#res?.headersSent === true) {
      this.destroy();
      return;
    }
    // node answers a request that is too slow to arrive with 408 (ERR_HTTP_REQUEST_TIMEOUT).
    this.deadline = 0;
    this.#fail(CLIENT_ERRORS.TIMEOUT!);
  }

  destroy(): void {
    this.socket.destroy();
  }

  pauseReading(): void {
    this.#bodyPaused = true;
    this.socket.pause();
  }

  resumeReading(): void {
    this.#bodyPaused = false;
    if (!this.#queuePaused && !this.#closing) this.socket.resume();
  }

  keepsAlive(): boolean {
    return !this.#draining();
  }

  responseDone(keepAlive: boolean): void {
    const req = this.#req!;
    this.#req = undefined;
    this.#res = undefined;
    // A body nobody read is read and dropped (node's req._dump()), so keep-alive goes on.
    if (!req.complete) req.dump();
    if (!keepAlive || this.#draining()) {
      this.#closeAfterWrites(!req.complete || this.#queue.length > 0 || this.#inMessage || this.#sentMore);
      return;
    }
    this.#next();
  }

  #onData(data: Buffer): void {
    if (this.#closing) {
      // Lingering: the bytes are dropped, and the connection waits a little longer for the rest.
      if (this.#lingerUntil !== 0) this.deadline = Math.min(coarseClock.now + (this.#timeouts.lingerTimeout ?? LINGER_TIMEOUT_MS), this.#lingerUntil);
      return;
    }
    if (!this.#inMessage && this.#deadlineKind !== 'head') {
      this.#deadlineKind = 'head';
      this.deadline = coarseClock.now + this.#timeouts.headersTimeout;
    }
    let offset = 0;
    while (offset < data.length) {
      const r = this.#parser.execute(offset === 0 ? data : data.subarray(offset));
      if (typeof r !== 'number') {
        this.#parseError(r);
        break;
      }
      if (this.#closing) break;
      if (this.#connectRequest) {
        // node destroys a CONNECT request's socket when nothing listens for 'connect'.
        this.destroy();
        return;
      }
      // llhttp stops after a request asking for an Upgrade; nothing here upgrades, so it is a
      // plain request (as node:http without an 'upgrade' listener) and parsing goes on.
      if (r === 0) break;
      offset += r;
    }
    if (this.#req === undefined && this.#queue.length > 0) this.#next();
  }

  // A request's first byte: from here the connection is busy, so a drain waits for the request
  // instead of cutting it mid-head (node:http counts it active from the same callback).
  #onMessageBegin(): void {
    this.#inMessage = true;
  }

  #onHeaders(headers: string[], url: string): void {
    for (const h of headers) this.#headerParts.push(h);
    this.#urlPart += url;
  }

  #onHeadersComplete(
    major: number, minor: number, headers: string[] | undefined, method: number, url: string | undefined,
    _status: unknown, _message: unknown, _upgrade: boolean, keepAlive: boolean,
  ): number {
    let raw = headers;
    if (raw === undefined) {
      raw = this.#headerParts;
      this.#headerParts = [];
    }
    let target = url;
    if (target === undefined || target === '') {
      target = this.#urlPart;
      this.#urlPart = '';
    }
    // Requests parsed after a refusal in the same read are not served.
    if (this.#closing) return 1;
    // llhttp reads any digit as a version; this leg speaks HTTP/1.x only (nginx answers 505 too).
    if (major !== 1) {
      this.#fail(VERSION_NOT_SUPPORTED);
      return 1;
    }
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is answered 400 (node:http and nginx
    // alike), and so is any with two (nginx: "client sent duplicate host header"): which one a
    // server in front and this one each route on must not differ.
    const hosts = hostCount(raw);
    if ((minor === 1 && hosts === 0) || hosts > 1) {
      this.#fail(BAD_REQUEST);
      return 1;
    }
    if (target.charCodeAt(0) !== 0x2f && target !== '*') raw = withTargetAuthority(raw, target);
    const name = methods[method] ?? 'GET';
    if (name === 'CONNECT') {
      this.#connectRequest = true;
      return 2;
    }
    this.#deadlineKind = 'body';
    this.deadline = coarseClock.now + this.#timeouts.requestTimeout;
    const req = new LeanRequest(this, this.socket, name, target, this.#headerFilter === undefined ? raw : this.#headerFilter(raw), minor);
    this.#parsing = req;
    // Handed to the proxy once this read is parsed (#onData): llhttp judges the framing that
    // follows a head (an invalid Transfer-Encoding, a broken chunk) only after this callback, and
    // a request refused for it must never reach the upstream.
    this.#queue.push({ req, keepAlive });
    // Pipelined requests beyond a few wait in the socket, not in memory.
    if (this.#queue.length >= 8) {
      this.#queuePaused = true;
      this.socket.pause();
    }
    return name === 'HEAD' ? 1 : 0;
  }

  #onBody(chunk: Buffer): void {
    this.#parsing?.pushBody(chunk);
  }

  #onMessageComplete(): void {
    // Fields handed over now are a chunked body's trailers: not forwarded (as node:http's leg).
    if (this.#headerParts.length > 0) this.#headerParts = [];
    this.#urlPart = '';
    const req = this.#parsing;
    this.#parsing = undefined;
    this.#inMessage = false;
    // A head refused inside the parser has already started the close: its deadline stays.
    if (!this.#closing) this.deadline = 0;
    req?.pushEnd();
  }

  #dispatch(req: LeanRequest, keepAlive: boolean): void {
    const res = new LeanResponse(this, this.socket, keepAlive, req.method === 'HEAD', req.httpVersionMinor === 0, this.#keepAliveFields);
    this.#req = req;
    this.#res = res;
    try {
      this.#handler(req, res);
    } catch {
      // A handler that throws (a plugin's invalid header) answers 500 rather than ending the process.
      if (!res.headersSent && !res.closed) {
        res.writeHead(500, ['Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(UNEXPECTED_BODY.length), 'Connection', 'close']);
        res.end(UNEXPECTED_BODY, 'latin1');
      } else {
        this.destroy();
      }
    }
  }

  /** Answers the next request in turn, or what its parsing failed with; or waits for more. */
  #next(): void {
    const pending = this.#queue.shift();
    if (this.#queuePaused && this.#queue.length < 8) {
      this.#queuePaused = false;
      if (!this.#bodyPaused && !this.#closing) this.socket.resume();
    }
    if (pending === undefined) {
      if (!this.#inMessage && this.#lingerUntil === 0) {
        this.#deadlineKind = 'idle';
        this.deadline = coarseClock.now + this.#timeouts.keepAliveTimeout;
      }
      return;
    }
    if ('error' in pending) {
      this.#answerError(pending.error);
      return;
    }
    this.#dispatch(pending.req, pending.keepAlive);
  }

  #parseError(error: Error & { code?: string }): void {
    this.#closing = true;
    this.#inMessage = false;
    // A request after one that asked to close (HTTP/1.0, Connection: close) is not read; its
    // client is still sending, so the close lingers (#closeAfterWrites).
    if (error.code === 'HPE_CLOSED_CONNECTION') {
      this.#sentMore = true;
      return;
    }
    this.#fail(CLIENT_ERRORS[error.code ?? ''] ?? BAD_REQUEST);
  }

  /** A framing error or a timeout: answered after the responses already owed, then closed. */
  #fail(answer: string): void {
    this.#closing = true;
    this.socket.pause();
    const broken = this.#parsing;
    this.#parsing = undefined;
    if (broken !== undefined && broken === this.#req) {
      // The request being answered broke (mid-body, or too slow): its exchange is abandoned.
      if (this.#res?.headersSent === true) this.destroy();
      else this.#answerError(answer);
      return;
    }
    // Earlier, well-formed requests are answered first; the broken one never is.
    this.#queue = this.#queue.filter((p) => !('req' in p) || p.req !== broken);
    this.#queue.push({ error: answer });
    if (this.#req === undefined) this.#next();
  }

  #answerError(answer: string): void {
    this.#closing = true;
    if (this.#res !== undefined) {
      // The current response is cut (its request broke mid-body): only a head not yet written is replaced.
      this.#res.connectionClosed();
      this.#req?.pushClose();
      this.#req = undefined;
      this.#res = undefined;
    }
    // A refused request's client may still be sending (a body, the rest of a head): it gets the
    // answer before the close. One too slow to send gets no more time.
    if (answer === CLIENT_ERRORS.TIMEOUT) this.#endThenDestroy(answer);
    else this.#lingerThenDestroy(answer);
  }

  /** `unread`: the client may still be sending (a body not read, requests pipelined after this one). */
  #closeAfterWrites(unread: boolean): void {
    this.#closing = true;
    this.#queue = [];
    if (unread) {
      this.#lingerThenDestroy('');
      return;
    }
    // A complete exchange with every byte in the kernel: close(2) alone sends them and the FIN,
    // as nginx closes a `Connection: close` exchange; the shutdown(2) of end() and its callback
    // would add ~10 µs per connection and close the same way (docs/benchmarks.md, "Lean client
    // leg"). A client that may still be sending lingers first (above).
    if (writesSettled(this.socket)) this.socket.destroy();
    else this.#endThenDestroy('');
  }

  /**
   * nginx's lingering close (lingering_close on): the answer and the FIN go out, then what the
   * client still sends is read and dropped until it closes its side, goes quiet for
   * LINGER_TIMEOUT_MS (lingering_timeout) or LINGER_TIME_MS have passed (lingering_time). Closed
   * at once, the socket would answer those bytes with a reset, and a client still uploading (an
   * upload refused before its body was read) would lose the answer it was sent.
   */
  #lingerThenDestroy(last: string): void {
    if (!this.socket.writable) return;
    // The lingering starts once the answer is written, as nginx's waits for its last bytes: a
    // client slow to read a large answer is not cut short (until then the exchange's send
    // timeout bounds it, as for any answer).
    this.deadline = 0;
    this.#deadlineKind = 'idle';
    const linger = (): void => {
      this.#lingerUntil = coarseClock.now + (this.#timeouts.lingerTime ?? LINGER_TIME_MS);
      this.deadline = Math.min(coarseClock.now + (this.#timeouts.lingerTimeout ?? LINGER_TIMEOUT_MS), this.#lingerUntil);
    };
    if (last === '') this.socket.end(linger);
    else this.socket.end(last, 'latin1', linger);
    this.socket.resume();
  }

  // The client may never close its side: the socket goes once the last bytes are written (an
  // end already under way has its own such callback).
  #endThenDestroy(last: string): void {
    if (!this.socket.writable) return;
    // end() with no data: an empty chunk would cost a write(2) of 0 bytes before the FIN.
    if (last === '') this.socket.end(() => this.socket.destroy());
    else this.socket.end(last, 'latin1', () => this.socket.destroy());
  }

  // A client that closes its side is taken as gone, as nginx (a client abort, logged 499) and
  // node:http do: what is in progress is abandoned and the connection closed.
  #onEnd(): void {
    this.destroy();
  }

  #onClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.deadline = 0;
    this.#res?.connectionClosed();
    this.#req?.pushClose();
    this.#parsing?.pushClose();
    for (const p of this.#queue) if ('req' in p) p.req.pushClose();
    this.#queue = [];
    this.#req = undefined;
    this.#res = undefined;
    // Parsers are reused, as node:http reuses its own (a new one per connection costs ~1 µs).
    // 'close' comes on a later tick than any execute(), so this one is not in use.
    if (FREE_PARSERS.length < MAX_FREE_PARSERS) FREE_PARSERS.push(releasedParser(this.#parser));
    this.#onGone(this);
  }
}
