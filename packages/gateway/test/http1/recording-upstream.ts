// An upstream over raw sockets for the client-leg differential test: it frames requests with
// llhttp, records each one as it arrived (method, target, fields, body) and answers by the last
// path segment, so both legs face the same upstream behaviours (lengths, chunks, 204, a
// close-delimited body, hop-by-hop fields, an echo, a large body).
import { createServer, type Server, type Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { listenOnLoopback } from '@signet/kit/testing';
import { HTTPParser, type OnRequestHeadersComplete } from '../../src/proxy/http-parser.ts';
import { createRequire } from 'node:module';

const { methods } = createRequire(import.meta.url)('_http_common') as { methods: readonly string[] };

/** One request as the upstream received it. */
export type Recorded = { method: string; url: string; rawHeaders: string[]; body: string };

const BIG = 'x'.repeat(200 * 1024);

function answer(method: string, url: string, body: string): { text: string; close: boolean } {
  const kind = url.split('?')[0]!.split('/').pop() ?? '';
  const head = (status: string, fields: string, payload: string, close = false): { text: string; close: boolean } => ({
    text: `HTTP/1.1 ${status}\r\n${fields}\r\n${method === 'HEAD' ? '' : payload}`,
    close,
  });
  switch (kind) {
    case 'chunked':
      return { text: `HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n${method === 'HEAD' ? '' : '3\r\nabc\r\n5\r\ndefgh\r\n0\r\n\r\n'}`, close: false };
    case 'nocontent':
      return head('204 No Content', 'X-Kind: nocontent\r\n', '');
    case 'big':
      return head('200 OK', `Content-Length: ${BIG.length}\r\n`, BIG);
    case 'echo':
      return head('201 Created', `Content-Type: application/octet-stream\r\nContent-Length: ${Buffer.byteLength(body, 'latin1')}\r\n`, body);
    case 'close':
      return head('200 OK', 'Connection: close\r\nContent-Type: text/plain\r\n', 'until the close', true);
    case 'hop':
      return head('200 OK', 'Connection: X-Hop, keep-alive\r\nX-Hop: gone\r\nKeep-Alive: timeout=5\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nVia: 1.1 origin\r\nContent-Length: 2\r\n', 'ok');
    case 'notfound':
      return head('404 Not Found', 'Content-Type: application/json\r\nContent-Length: 2\r\n', '{}');
    default:
      return head('200 OK', 'Content-Type: text/plain\r\nContent-Length: 5\r\n', 'hello');
  }
}

/** The recording upstream: `take()` returns and clears what arrived since the last call. */
export class RecordingUpstream {
  readonly #server: Server;
  readonly #sockets = new Set<Socket>();
  #recorded: Recorded[] = [];
  port = 0;

  private constructor() {
    this.#server = createServer((socket) => this.#serve(socket));
  }

  static async start(t: TestContext): Promise<RecordingUpstream> {
    const up = new RecordingUpstream();
    up.port = await listenOnLoopback(up.#server);
    t.after(() => new Promise<void>((resolve) => {
      for (const s of up.#sockets) s.destroy();
      up.#server.close(() => resolve());
    }));
    return up;
  }

  take(): Recorded[] {
    const out = this.#recorded;
    this.#recorded = [];
    return out;
  }

  #serve(socket: Socket): void {
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
    socket.on('error', () => undefined);
    const parser = new HTTPParser();
    parser.initialize(HTTPParser.REQUEST, {}, 0, 0);
    let current: Recorded | undefined;
    let parts: string[] = [];
    let urlPart = '';
    parser[HTTPParser.kOnHeaders] = (h: string[], u: string) => {
      parts.push(...h);
      urlPart += u;
    };
    const onHead: OnRequestHeadersComplete = (_maj, _min, headers, method, url) => {
      current = { method: methods[method] ?? '?', url: url || urlPart, rawHeaders: headers ?? parts, body: '' };
      parts = [];
      urlPart = '';
      return 0;
    };
    parser[HTTPParser.kOnHeadersComplete] = onHead;
    parser[HTTPParser.kOnBody] = (b: Buffer) => {
      if (current !== undefined) current.body += b.toString('latin1');
    };
    parser[HTTPParser.kOnMessageComplete] = () => {
      // Fields handed over now are trailers.
      parts = [];
      urlPart = '';
      const r = current!;
      current = undefined;
      this.#recorded.push(r);
      const { text, close } = answer(r.method, r.url, r.body);
      if (close) socket.end(text, 'latin1');
      else socket.write(text, 'latin1');
    };
    socket.on('data', (d: Buffer) => {
      const r = parser.execute(d);
      if (typeof r !== 'number') socket.destroy();
    });
  }
}
