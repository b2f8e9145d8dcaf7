import { createRequire } from 'node:module';

// Node's own llhttp binding, the parser node:http uses. Framing the upstream response
// with it (Content-Length, chunked, read-until-close, HEAD, 1xx) is strict and costs no JS
// parsing; it is what lets the upstream leg skip http.Agent/undici (docs/benchmarks.md,
// bench/gateway/run.ts: lean pool vs undici Pool). `_http_common` is an internal module, so its
// shape is typed here and checked at load.

/** The llhttp parser binding (lib/_http_common.js, src/node_http_parser.cc). */
export interface LlhttpParser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenientFlags: number): void;
  /** Bytes consumed, or an Error with `code` (HPE_*) on a protocol violation. */
  execute(data: Buffer): number | Error;
  /** Signals EOF: completes a read-until-close body, or returns an Error. */
  finish(): number | Error | undefined;
  close(): void;
  free(): void;
  [key: number]: unknown;
}

type ParserModule = {
  HTTPParser: {
    new (): LlhttpParser;
    readonly REQUEST: number;
    readonly RESPONSE: number;
    readonly kOnMessageBegin: number;
    readonly kOnHeaders: number;
    readonly kOnHeadersComplete: number;
    readonly kOnBody: number;
    readonly kOnMessageComplete: number;
  };
};

const { HTTPParser } = createRequire(import.meta.url)('_http_common') as ParserModule;
if (typeof HTTPParser !== 'function' || typeof HTTPParser.RESPONSE !== 'number') {
  throw new Error('this Node.js has no llhttp HTTPParser in _http_common');
}

/** Called when a response head is complete; returning 1 tells llhttp the response has no body. */
export type OnHeadersComplete = (
  versionMajor: number,
  versionMinor: number,
  headers: string[] | undefined,
  method: unknown,
  url: unknown,
  statusCode: number,
  statusMessage: string,
  upgrade: boolean,
  shouldKeepAlive: boolean,
) => number;

export { HTTPParser };

/** Called when a request head is complete (`method` indexes _http_common's `methods`); 1: no body, 2: upgrade. */
export type OnRequestHeadersComplete = (
  versionMajor: number,
  versionMinor: number,
  headers: string[] | undefined,
  method: number,
  url: string | undefined,
  statusCode: unknown,
  statusMessage: unknown,
  upgrade: boolean,
  shouldKeepAlive: boolean,
) => number;
