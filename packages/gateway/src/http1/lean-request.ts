import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/** Request bodies parsed ahead of their reader: past this many bytes the socket stops reading. */
export const BODY_HIGH_WATER = 64 * 1024;

/** What a request asks of its connection: read flow control, and a cut. */
export interface RequestOwner {
  pauseReading(): void;
  resumeReading(): void;
  destroy(): void;
}

// node:http's joining rules (IncomingMessage._addHeaderLine): these keep the first value, set-cookie
// keeps every value in an array, and any other field repeated is joined with ", ".
const FIRST_ONLY = new Set([
  'content-type', 'content-length', 'user-agent', 'referer', 'host', 'authorization', 'proxy-authorization',
  'if-modified-since', 'if-unmodified-since', 'from', 'location', 'max-forwards', 'retry-after', 'etag',
  'last-modified', 'server', 'age', 'expires',
]);

function headersOf(raw: readonly string[]): IncomingHttpHeaders {
  const out: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const had = out[name];
    if (had === undefined) out[name] = name === 'set-cookie' ? [value] : value;
    else if (name === 'set-cookie') (had as string[]).push(value);
    else if (!FIRST_ONLY.has(name)) out[name] = (had as string) + (name === 'cookie' ? '; ' : ', ') + value;
  }
  return out;
}

/**
 * One HTTP/1.1 request on the lean client leg: the members of node's IncomingMessage the proxy
 * reads (method, url, rawHeaders, headers, socket, version) and its body as 'data'/'end' events
 * with pause()/resume(). Not a Readable: a stream per request costs more than the proxy's whole
 * routing, and nothing pipes it. Like a Readable, the body is held until someone listens for
 * 'data' (the proxy connects upstream first), then delivered on a later tick, in order.
 */
export class LeanRequest extends EventEmitter {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  readonly httpVersionMajor = 1;
  readonly httpVersionMinor: number;
  readonly httpVersion: string;
  readonly socket: Socket;
  /** The whole body has been parsed (not necessarily delivered). */
  complete = false;
  readonly #owner: RequestOwner;
  #headers: IncomingHttpHeaders | undefined;
  /** Parsed body chunks not delivered yet (no reader, or paused). */
  #queued: Buffer[] | undefined;
  #queuedBytes = 0;
  #flowing = false;
  #paused = false;
  #ended = false;
  #flushScheduled = false;
  /** The response is over: whatever body still comes is discarded (node's req._dump()). */
  #dumping = false;
  #closed = false;

  constructor(owner: RequestOwner, socket: Socket, method: string, url: string, rawHeaders: string[], versionMinor: number) {
    super();
    this.#owner = owner;
    this.socket = socket;
    this.method = method;
    this.url = url;
    this.rawHeaders = rawHeaders;
    this.httpVersionMinor = versionMinor;
    this.httpVersion = versionMinor === 0 ? '1.0' : '1.1';
  }

  /** Lower-cased fields joined as node:http joins them; made on first use (most requests never ask). */
  get headers(): IncomingHttpHeaders {
    return (this.#headers ??= headersOf(this.rawHeaders));
  }

  override on(event: string | symbol, listener: (...args: never[]) => void): this {
    super.on(event, listener as (...args: unknown[]) => void);
    if (event === 'data' && !this.#flowing) {
      this.#flowing = true;
      this.#scheduleFlush();
    }
    return this;
  }

  override addListener(event: string | symbol, listener: (...args: never[]) => void): this {
    return this.on(event, listener);
  }

  pause(): this {
    this.#paused = true;
    return this;
  }

  resume(): this {
    this.#paused = false;
    // node: resume() without a 'data' listener reads the body and throws it away.
    this.#flowing = true;
    this.#scheduleFlush();
    return this;
  }

  isPaused(): boolean {
    return this.#paused;
  }

  destroy(): this {
    this.#owner.destroy();
    return this;
  }

  /** A body chunk from the parser: llhttp's own copy, never a view of the shared read buffer, so it is kept as it is. */
  pushBody(chunk: Buffer): void {
    if (this.#dumping) return;
    if (this.#flowing && !this.#paused && this.#queued === undefined) {
      this.emit('data', chunk);
      return;
    }
    (this.#queued ??= []).push(chunk);
    this.#queuedBytes += chunk.length;
    if (this.#queuedBytes > BODY_HIGH_WATER) this.#owner.pauseReading();
  }

  /** The parser reached the end of the body. */
  pushEnd(): void {
    this.complete = true;
    if (this.#dumping) return;
    if (this.#flowing && !this.#paused && this.#queued === undefined) this.#end();
    else this.#scheduleFlush();
  }

  /** The response ended: the body is not wanted any more (its bytes are still read and dropped). */
  dump(): void {
    if (this.#dumping) return;
    this.#dumping = true;
    this.#queued = undefined;
    if (this.#queuedBytes > 0) {
      this.#queuedBytes = 0;
      this.#owner.resumeReading();
    }
  }

  /** The connection closed: 'close' for whoever still listens (the body will never end). */
  pushClose(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.emit('close');
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled || !this.#flowing || this.#paused) return;
    if (this.#queued === undefined && !(this.complete && !this.#ended)) return;
    this.#flushScheduled = true;
    process.nextTick(() => {
      this.#flushScheduled = false;
      this.#flush();
    });
  }

  #flush(): void {
    const queued = this.#queued;
    while (queued !== undefined && queued.length > 0 && !this.#paused && !this.#dumping) {
      const chunk = queued.shift()!;
      this.#queuedBytes -= chunk.length;
      this.emit('data', chunk);
    }
    if (queued !== undefined && queued.length === 0) {
      this.#queued = undefined;
      this.#owner.resumeReading();
    }
    if (this.#queued === undefined && this.complete && !this.#paused && !this.#dumping) this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.emit('end');
  }
}
