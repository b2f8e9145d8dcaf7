import { EventEmitter } from 'node:events';
import { STATUS_CODES, type OutgoingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';
import { writeLatin1 } from '../proxy/write-latin1.ts';
import { CHUNKED, CLOSES, fieldLine, SEEN_CONNECTION, SEEN_DATE, SEEN_LENGTH, SEEN_TE } from './field-lines.ts';

/** What a response tells its connection. */
export interface ResponseOwner {
  /** The response is complete (`keepAlive`: the connection may take the next request). */
  responseDone(keepAlive: boolean): void;
  /** False once the listener drains: the head then says `Connection: close`. */
  keepsAlive(): boolean;
  destroy(): void;
}

export { InvalidHeaderError } from './field-lines.ts';

// The Date field, made at most once a second (node caches it the same way).
let dateSecond = 0;
let dateLine = '';
function dateField(): string {
  const now = Date.now();
  const second = now - (now % 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateLine = 'Date: ' + new Date(now).toUTCString() + '\r\n';
  }
  return dateLine;
}

const CHUNK_END = '0\r\n\r\n';

const byteSize = (chunk: Buffer | string, encoding: BufferEncoding | undefined): number =>
  typeof chunk === 'string' ? Buffer.byteLength(chunk, encoding ?? 'utf8') : chunk.length;

/**
 * A response on the lean client leg with the members of node's ServerResponse the proxy uses
 * (writeHead, write, end, writeContinue, headersSent, statusCode, destroy, 'drain', 'close'),
 * framed by node's rules so clients see what node:http sent: the caller's fields in order, then
 * Date, Connection (and Keep-Alive), then Content-Length or chunked when the caller gave neither.
 * The head is held until the first body write or the end, so a small response goes out in one
 * write (one string when its body is a latin1 string).
 *
 * TCP_NODELAY is set as nginx sets it (tcp_nodelay): before a write that more writes follow (a
 * streamed body, a 100 Continue) and on a connection kept alive, where Nagle's algorithm would
 * hold a small write behind an unacknowledged one (the client's delayed ACK: up to 40 ms). A
 * whole response on a connection that then closes goes out in one write and needs none: that
 * saves a setsockopt(2) per `Connection: close` exchange (docs/benchmarks.md, "Lean client leg").
 */
export class LeanResponse extends EventEmitter {
  statusCode = 200;
  statusMessage = '';
  headersSent = false;
  writableEnded = false;
  /** True once the response is over (complete or cut): its 'close' has been emitted. */
  closed = false;
  readonly #owner: ResponseOwner;
  readonly #socket: Socket;
  /** The head, until it is written with the first body bytes. */
  #head: string | undefined;
  #hasBody: boolean;
  #chunked = false;
  #keepAlive: boolean;
  readonly #http10: boolean;
  /** `Connection: keep-alive` and `Keep-Alive: timeout=…` lines, made once per connection. */
  readonly #keepAliveFields: string;
  #waitingDrain = false;
  #onDrain: (() => void) | undefined;
  /** Which framing fields the caller gave (SEEN_*), while the head is made. */
  #seen = 0;

  /**
   * `keepAlive`: the request allows reusing the connection (llhttp's verdict); `head`: a HEAD
   * request (no body is ever written).
   */
  constructor(owner: ResponseOwner, socket: Socket, keepAlive: boolean, head: boolean, http10: boolean, keepAliveFields: string) {
    super();
    this.#owner = owner;
    this.#socket = socket;
    this.#keepAlive = keepAlive;
    this.#hasBody = !head;
    this.#http10 = http10;
    this.#keepAliveFields = keepAliveFields;
  }

  /** `HTTP/1.1 100 Continue` before the body is read (the client waits for it). */
  writeContinue(): void {
    if (this.closed) return;
    this.#socket.setNoDelay(true);
    this.#socket.write('HTTP/1.1 100 Continue\r\n\r\n', 'latin1');
  }

  writeHead(status: number, message?: string | OutgoingHttpHeaders | readonly string[], headers?: OutgoingHttpHeaders | readonly string[]): this {
    if (this.headersSent) throw new Error('writeHead after the head was sent');
    let fields = headers;
    let text: string | undefined;
    if (typeof message === 'string') text = message;
    else fields = message;
    this.statusCode = status;
    this.statusMessage = text ?? STATUS_CODES[status] ?? 'unknown';
    if (status === 204 || status === 304 || (status >= 100 && status < 200)) this.#hasBody = false;
    this.#head = 'HTTP/1.1 ' + status + ' ' + this.statusMessage + '\r\n';
    this.#seen = 0;
    if (Array.isArray(fields)) {
      for (let i = 0; i < fields.length; i += 2) this.#field(i >> 1, fields[i] as string, String(fields[i + 1]));
    } else if (fields !== undefined) {
      let position = 0;
      for (const name of Object.keys(fields)) {
        const value = (fields as OutgoingHttpHeaders)[name];
        if (value === undefined) continue;
        if (Array.isArray(value)) for (const v of value) this.#field(position++, name, String(v));
        else this.#field(position++, name, String(value));
      }
    }
    let head = this.#head;
    const seen = this.#seen;
    const date = (seen & SEEN_DATE) !== 0;
    const connection = (seen & SEEN_CONNECTION) !== 0;
    const contentLength = (seen & SEEN_LENGTH) !== 0;
    const te = (seen & SEEN_TE) !== 0;
    if (!date) head += dateField();
    if (this.#keepAlive && !this.#owner.keepsAlive()) this.#keepAlive = false;
    // An HTTP/1.0 client cannot read chunks: without a length the body ends at the close
    // (node's _storeHeader: keep-alive for HTTP/1.0 only with a Content-Length).
    const canDelimit = contentLength || !this.#http10;
    if (!connection) {
      if (this.#keepAlive && canDelimit) {
        head += this.#keepAliveFields;
      } else {
        this.#keepAlive = false;
        head += 'Connection: close\r\n';
      }
    }
    if (!contentLength && !te && this.#hasBody) {
      if (this.#http10) this.#keepAlive = false;
      else {
        head += 'Transfer-Encoding: chunked\r\n';
        this.#chunked = true;
      }
    }
    if (!this.#hasBody) this.#chunked = false;
    this.#head = head + '\r\n';
    this.headersSent = true;
    return this;
  }

  /** Appends field number `position` to the head being made, noting the ones framing depends on. */
  #field(position: number, name: string, value: string): void {
    const f = fieldLine(position, name, value);
    this.#head += f.line;
    const flags = f.flags;
    if (flags === 0) return;
    this.#seen |= flags & (SEEN_DATE | SEEN_CONNECTION | SEEN_LENGTH | SEEN_TE);
    if ((flags & CLOSES) !== 0) this.#keepAlive = false;
    if ((flags & CHUNKED) !== 0) this.#chunked = true;
  }

  /** Body bytes (latin1 for strings: the proxy's strings hold bytes); false: wait for 'drain'. */
  write(chunk: Buffer | string, encoding?: BufferEncoding): boolean {
    if (!this.headersSent) this.writeHead(this.statusCode);
    if (this.writableEnded || this.closed) return false;
    // More writes follow this one (below).
    this.#socket.setNoDelay(true);
    const size = byteSize(chunk, encoding);
    if (!this.#hasBody || size === 0) return this.#flushHead();
    const head = this.#takeHead() ?? '';
    const ok = this.#chunked ? this.#send(head + size.toString(16) + '\r\n', chunk, '\r\n', encoding) : this.#send(head, chunk, '', encoding);
    if (!ok) this.#awaitDrain();
    return ok;
  }

  end(chunk?: Buffer | string, encoding?: BufferEncoding): this {
    if (this.writableEnded || this.closed) return this;
    const size = chunk === undefined ? 0 : byteSize(chunk, encoding);
    // Like node's end(data) before any head: the length is known, so it is sent.
    if (!this.headersSent) this.writeHead(this.statusCode, this.#hasBody ? ['Content-Length', String(size)] : []);
    this.writableEnded = true;
    // The connection stays for the next response (below).
    if (this.#keepAlive) this.#socket.setNoDelay(true);
    const head = this.#takeHead() ?? '';
    if (!this.#hasBody || size === 0) {
      const last = head + (this.#chunked ? CHUNK_END : '');
      if (last !== '') writeLatin1(this.#socket, last);
    } else if (this.#chunked) {
      this.#send(head + size.toString(16) + '\r\n', chunk!, '\r\n' + CHUNK_END, encoding);
    } else {
      this.#send(head, chunk!, '', encoding);
    }
    this.#finish();
    return this;
  }

  /** Cuts the client's connection (a response that cannot be completed). */
  destroy(): this {
    this.#owner.destroy();
    return this;
  }

  /** The connection closed before the response completed, or after: 'close' once. */
  connectionClosed(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.#onDrain !== undefined) this.#socket.off('drain', this.#onDrain);
    this.emit('close');
  }

  #finish(): void {
    this.emit('finish');
    this.#owner.responseDone(this.#keepAlive);
    this.connectionClosed();
  }

  #takeHead(): string | undefined {
    const head = this.#head;
    this.#head = undefined;
    return head;
  }

  #flushHead(): boolean {
    const head = this.#takeHead();
    return head === undefined ? !this.#socket.writableNeedDrain : this.#socket.write(head, 'latin1');
  }

  /**
   * `prefix` (head, chunk size), the body bytes, `suffix` (chunk end): one string and one write
   * when the body is a latin1 string (the proxy's relayed bodies), else one corked writev.
   */
  #send(prefix: string, chunk: Buffer | string, suffix: string, encoding: BufferEncoding | undefined): boolean {
    const socket = this.#socket;
    if (typeof chunk === 'string' && (encoding === 'latin1' || encoding === 'binary')) return writeLatin1(socket, prefix + chunk + suffix);
    if (prefix === '' && suffix === '') return socket.write(chunk, encoding as BufferEncoding);
    socket.cork();
    if (prefix !== '') socket.write(prefix, 'latin1');
    let ok = socket.write(chunk, encoding as BufferEncoding);
    if (suffix !== '') ok = socket.write(suffix, 'latin1');
    socket.uncork();
    return ok;
  }

  #awaitDrain(): void {
    if (this.#waitingDrain) return;
    this.#waitingDrain = true;
    // Made on first need: most responses never wait (a closure per response costs on the hot path).
    this.#onDrain ??= () => {
      this.#waitingDrain = false;
      this.emit('drain');
    };
    this.#socket.once('drain', this.#onDrain);
  }
}
