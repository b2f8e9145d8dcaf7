import { constants, createServer, type Http2ServerRequest, type Http2ServerResponse, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import { LEAN_TIMEOUTS, type HeaderFilter } from '../http1/index.ts';
import { http1RawHeaders } from './http1-raw-headers.ts';
import { Http2ProxyResponse } from './http2-proxy-response.ts';

/** The proxy handler, called with node:http2's compatibility request and response. */
export type Http2RequestHandler = (req: Http2ServerRequest, res: Http2ServerResponse) => void;

/** Hands one HTTP/2 stream (an http2 server's 'stream' event arguments) to the HTTP handler. */
export type Http2StreamDispatch = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders, flags: number, rawHeaders: string[]) => void;

/**
 * The HTTP side of an HTTP/2 listener: node:http2's compatibility layer, fed the streams that
 * are not gRPC calls. It is a server object of its own, never listening, so the layer (which
 * an http2 server installs for every stream once it has a 'request' listener) sees only
 * those; the header list it is given and its response class give the handler the HTTP/1.1
 * view it is written for. `Expect: 100-continue` goes to the handler as on HTTP/1.1, which sends the 100 itself.
 */
export function createHttp2HttpSide(handler: Http2RequestHandler, headerFilter?: HeaderFilter, requestTimeoutMs = LEAN_TIMEOUTS.requestTimeout): Http2StreamDispatch {
  const side = createServer({ Http2ServerResponse: Http2ProxyResponse });
  side.on('request', handler);
  side.on('checkContinue', handler);
  return (stream, headers, flags, rawHeaders) => {
    // RFC 8441's extended CONNECT (WebSocket over HTTP/2) is not offered (no
    // SETTINGS_ENABLE_CONNECT_PROTOCOL), so a CONNECT here is a tunnel request: not served, as nginx.
    if (headers[':method'] === 'CONNECT') {
      stream.on('error', () => undefined);
      stream.respond({ ':status': 405 }, { endStream: true });
      return;
    }
    // RFC 9113 §8.3.1: a Host naming another entity than :authority makes the request malformed
    // (which of the two routes it would be a guess; an HTTP/1.1 upstream would see only Host).
    const authority = headers[':authority'];
    if (headers.host !== undefined && authority !== undefined && headers.host.toLowerCase() !== authority.toLowerCase()) {
      stream.on('error', () => undefined);
      stream.respond({ ':status': 400 }, { endStream: true });
      return;
    }
    // The request reads its method and path from `headers`, and hands `rawHeaders` on as they
    // are: given the HTTP/1.1 view, routing, plugins and the upstream leg stay the same code.
    // hash_on header host and header-based routes read `host` as on HTTP/1.1.
    if (headers.host === undefined && authority !== undefined) headers.host = authority;
    let raw = rawHeaders;
    if (headerFilter !== undefined && (raw = headerFilter(rawHeaders)) !== rawHeaders) {
      // The fields left out go from the joined view too (names arrive lower-case, §8.2.1).
      const kept = new Set(raw.filter((_, i) => i % 2 === 0));
      for (const name of Object.keys(headers)) if (!name.startsWith(':') && name !== 'host' && !kept.has(name)) delete headers[name];
    }
    if (!stream.endAfterHeaders) requestDeadline(stream, requestTimeoutMs);
    try {
      side.emit('stream', stream, headers, flags, http1RawHeaders(raw, !stream.endAfterHeaders));
    } catch {
      answerUnexpected(stream);
    }
  };
}

/**
 * The HTTP/1.1 leg's requestTimeout for a stream with a body: by then the client must have sent
 * all of it (END_STREAM). Without it a stream could hold its share of the body budget, and its
 * upstream connection, for as long as the client keeps the connection. Past it the stream is
 * reset: the exchange sees its client gone and the body's bytes are given back.
 */
function requestDeadline(stream: ServerHttp2Stream, ms: number): void {
  const timer = setTimeout(() => {
    if (!stream.destroyed && stream.state.remoteClose !== 1) stream.close(constants.NGHTTP2_CANCEL);
  }, ms);
  timer.unref();
  stream.once('close', () => clearTimeout(timer));
}

const UNEXPECTED_BODY = '{\n  "message":"An unexpected error occurred"\n}';

/**
 * A handler that throws (a head node:http2 refuses) runs inside the session's frame callback,
 * where a throw would end the process: answered 500 as the HTTP/1.1 leg answers it
 * (lean-connection.ts #dispatch), or the stream is reset once its head is out.
 */
function answerUnexpected(stream: ServerHttp2Stream): void {
  if (stream.destroyed || stream.closed) return;
  if (stream.headersSent) {
    stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  stream.on('error', () => undefined);
  stream.respond({ ':status': 500, 'content-type': 'application/json; charset=utf-8', 'content-length': UNEXPECTED_BODY.length });
  stream.end(UNEXPECTED_BODY);
}
