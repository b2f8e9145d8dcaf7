// What the log phase knows of a finished request, and Kong's log serializer on it
// (kong/pdk/log.lua serialize): the JSON every Kong logging plugin sends.
import type { IncomingMessage } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RequestDone } from '../proxy/proxy-hooks.ts';
import type { PluginContext } from './plugin-context.ts';

/** One finished request, as the log phase sees it. */
export type LogEntry = {
  readonly done: RequestDone;
  /** Request headers as node parsed them (lower-case names; repeated ones joined or listed). */
  readonly requestHeaders: Readonly<Record<string, string | string[] | undefined>>;
  /** Request line, headers and body, bytes (nginx $request_length). */
  readonly requestSize: number;
  /** Response headers as sent, raw pairs. */
  readonly responseHeaders: readonly string[];
  /** Response head and body bytes sent (nginx $bytes_sent). */
  readonly responseSize: number;
  /** The path and query sent upstream; undefined when the gateway answered itself. */
  readonly upstreamUri: string | undefined;
  /** The upstream's own status, when there was one. */
  readonly upstreamStatus: number | undefined;
  readonly scheme: 'http' | 'https';
  /** performance.now() when the request arrived. */
  readonly startedAt: number;
};

/**
 * The entry of a request the proxy handled: what only some loggers read (node's header table,
 * which node builds on first access; the request's size; the upstream URI) is worked out when a
 * logger first reads it, so a route whose only logger is prometheus never builds the table.
 */
export class RequestLogEntry implements LogEntry {
  readonly done: RequestDone;
  readonly scheme: 'http' | 'https';
  readonly responseHeaders: readonly string[];
  readonly responseSize: number;
  readonly upstreamStatus: number | undefined;
  readonly startedAt: number;
  readonly #req: IncomingMessage;
  readonly #bodyBytes: number;
  readonly #requestLine: string | undefined;
  #requestSize = -1;

  /** `requestLine`: the one sent upstream (`METHOD uri HTTP/1.1\r\n`), undefined when the gateway answered itself. */
  constructor(
    done: RequestDone, req: IncomingMessage, bodyBytes: number, scheme: 'http' | 'https', responseHeaders: readonly string[],
    responseSize: number, requestLine: string | undefined, upstreamStatus: number | undefined, startedAt: number,
  ) {
    this.done = done;
    this.#req = req;
    this.#bodyBytes = bodyBytes;
    this.scheme = scheme;
    this.responseHeaders = responseHeaders;
    this.responseSize = responseSize;
    this.#requestLine = requestLine;
    this.upstreamStatus = upstreamStatus;
    this.startedAt = startedAt;
  }

  get requestHeaders(): Readonly<Record<string, string | string[] | undefined>> {
    const headers = this.#req.headers;
    if (this.#req.httpVersionMajor !== 2) return headers;
    // Over HTTP/2 node lists the pseudo-header fields too; nginx's header list (Kong's logs) has
    // none of them, its host being the one the proxy gave the request (src/http2/).
    const fields: Record<string, string | string[] | undefined> = {};
    for (const [name, value] of Object.entries(headers)) if (!name.startsWith(':')) fields[name] = value;
    return fields;
  }

  get requestSize(): number {
    if (this.#requestSize < 0) this.#requestSize = requestHeadLength(this.done.method, this.done.uri, this.#req.rawHeaders) + this.#bodyBytes;
    return this.#requestSize;
  }

  get upstreamUri(): string | undefined {
    const line = this.#requestLine;
    return line === undefined ? undefined : line.slice(line.indexOf(' ') + 1, line.lastIndexOf(' '));
  }
}

/** nginx's $request_length for a request: its request line and headers (plus the body bytes counted). */
export function requestHeadLength(method: string, url: string, rawHeaders: readonly string[]): number {
  let n = method.length + url.length + 14; // the two spaces, "HTTP/1.1\r\n" and the final CRLF
  for (let i = 0; i < rawHeaders.length; i += 2) n += rawHeaders[i]!.length + rawHeaders[i + 1]!.length + 4;
  return n;
}

function headerTable(raw: readonly string[]): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i < raw.length; i += 2) {
    const k = raw[i]!.toLowerCase();
    const v = raw[i + 1]!;
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** Kong's serializer (kong.log.serialize) for an HTTP request. */
export function serializeLogEntry(ctx: PluginContext, e: LogEntry): Record<string, unknown> {
  const d = e.done;
  const host = typeof e.requestHeaders.host === 'string' ? e.requestHeaders.host : '';
  const querystring: Record<string, unknown> = {};
  for (const [k, v] of ctx.queryArgs()) {
    const prev = querystring[k];
    querystring[k] = prev === undefined ? v : Array.isArray(prev) ? [...(prev as unknown[]), v] : [prev, v];
  }
  const headers: Record<string, unknown> = { ...e.requestHeaders };
  // Kong hides these in its logs (kong/pdk/log.lua: authorization and proxy-authorization redacted).
  for (const secret of ['authorization', 'proxy-authorization']) if (headers[secret] !== undefined) headers[secret] = 'REDACTED';
  const credential = ctx.credential;
  return {
    request: {
      id: d.requestId,
      uri: d.uri,
      url: `${e.scheme}://${host}${d.uri}`,
      querystring,
      method: d.method,
      headers,
      size: e.requestSize,
    },
    upstream_uri: e.upstreamUri ?? '',
    upstream_status: e.upstreamStatus === undefined ? '' : String(e.upstreamStatus),
    response: { status: d.status, headers: headerTable(e.responseHeaders), size: e.responseSize },
    latencies: {
      kong: Math.round(d.proxyLatencyMs ?? d.totalMs),
      proxy: d.upstreamLatencyMs === undefined ? -1 : Math.round(d.upstreamLatencyMs),
      request: Math.round(d.totalMs),
      receive: 0,
    },
    ...(d.upstreamAddress !== undefined ? { tries: [{ ip: d.upstreamAddress.replace(/:\d+$/, '').replace(/^\[|\]$/g, ''), port: Number(d.upstreamAddress.slice(d.upstreamAddress.lastIndexOf(':') + 1)) }] } : {}),
    ...(credential !== undefined ? { authenticated_entity: { id: credential.identifier } } : {}),
    ...(d.route !== undefined ? { route: d.route } : {}),
    ...(d.service !== undefined ? { service: d.service } : {}),
    ...(ctx.consumer !== undefined ? { consumer: ctx.consumer } : {}),
    client_ip: d.clientIp,
    started_at: Math.round(performance.timeOrigin + e.startedAt),
    source: d.source === 'upstream' ? 'service' : 'kong',
    workspace: '00000000-0000-0000-0000-000000000000',
    workspace_name: 'default',
    ...ctx.serializeValues,
  };
}

// The loggers of one request share one encoding of its entry.
const encoded = new WeakMap<LogEntry, string>();

/** cjson.encode(kong.log.serialize()): computed once per request whatever the number of loggers. */
export function logEntryJson(ctx: PluginContext, e: LogEntry): string {
  let json = encoded.get(e);
  if (json === undefined) encoded.set(e, (json = JSON.stringify(serializeLogEntry(ctx, e))));
  return json;
}
