import type { ServerResponse } from 'node:http';
import { GatewayError, renderKongError, type GatewayErrorCode } from '../errors.ts';
import { SERVER, VIA } from './kong-headers.ts';
import { openBodyFilter, ResponseHead, runHeaderFilter, type PluginContext } from '../plugins/index.ts';

/**
 * Answers a request with one of Kong's own errors (kong.response.error): the catalog message
 * in the format the client's Accept asks for, with the request id (kong/tools/http.lua).
 */
export function sendProxyError(
  res: ServerResponse,
  code: GatewayErrorCode,
  accept: string | undefined,
  requestId: string,
  extraHeaders?: Readonly<Record<string, string>>,
  plugins?: PluginContext,
): void {
  const error = new GatewayError(code);
  sendKongResponse(res, error.status, error.message, accept, requestId, extraHeaders, plugins);
}

// RFC 9110 §8.6: no Content-Length on a 1xx or 204 (nor on a 304, which has no body here);
// Kong's request-termination spec checks a 204 goes without one.
const bodiless = (status: number): boolean => status < 200 || status === 204 || status === 304;

/** A plain text answer (kong.response.exit with a string body): a class, so no JSON table is taken for one. */
export class TextBody {
  constructor(readonly text: string) {}
}

/**
 * kong.response.error(status, message, headers) for any status and message: how plugins answer
 * in the upstream's place (their messages are Kong's, written in each plugin's handler).
 */
export function sendKongResponse(
  res: ServerResponse,
  status: number,
  message: string | Readonly<Record<string, unknown>> | null | TextBody,
  accept: string | undefined,
  requestId: string,
  extraHeaders?: Readonly<Record<string, string>>,
  plugins?: PluginContext,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A table body (kong.response.exit) is sent as JSON as is; a message in Kong's error format;
  // null: no body and no Content-Type (kong.response.exit(status)); {text}: that text, no Content-Type.
  const { contentType, body } = message === null
    ? { contentType: undefined, body: '' }
    : message instanceof TextBody
      ? { contentType: undefined, body: message.text }
      : typeof message === 'string'
      ? renderKongError(message, accept, requestId)
      : { contentType: 'application/json; charset=utf-8', body: JSON.stringify(message) };
  if (plugins?.collected !== undefined) {
    const headers = contentType === undefined ? ['Server', SERVER, 'X-Kong-Request-Id', requestId] : ['Content-Type', contentType, 'Server', SERVER, 'X-Kong-Request-Id', requestId];
    for (const [k, v] of Object.entries(extraHeaders ?? {})) headers.push(k, v);
    sendThroughPlugins(res, plugins, status, headers, Buffer.from(body));
    return;
  }
  res.writeHead(status, {
    ...(contentType === undefined ? {} : { 'Content-Type': contentType }),
    ...(bodiless(status) ? {} : { 'Content-Length': Buffer.byteLength(body) }),
    Server: SERVER,
    'X-Kong-Request-Id': requestId,
    ...extraHeaders,
  });
  res.end(body);
}

/**
 * kong.response.exit with a response stored earlier (proxy-cache's hit): its status, headers and
 * body, with what Kong adds to a response it counts as proxied (kong/runloop/handler.lua
 * header_filter: Via, the latencies, Server when the stored response has none).
 */
export function sendStoredResponse(
  res: ServerResponse, status: number, stored: readonly string[], body: Buffer, requestId: string, proxyLatencyMs: number, plugins?: PluginContext,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const headers = [...stored];
  let hasServer = false;
  for (let i = 0; i < headers.length; i += 2) if (headers[i]!.toLowerCase() === 'server') hasServer = true;
  if (!hasServer) headers.push('Server', SERVER);
  headers.push('Via', VIA, 'X-Kong-Upstream-Latency', '0', 'X-Kong-Proxy-Latency', String(Math.round(proxyLatencyMs)), 'X-Kong-Request-Id', requestId);
  if (plugins?.collected !== undefined) {
    sendThroughPlugins(res, plugins, status, headers, body);
    return;
  }
  if (!bodiless(status)) headers.push('Content-Length', String(body.length));
  res.writeHead(status, headers);
  res.end(body);
}

// The gateway's own answer goes through the collected plugins' header_filter and body_filter as
// an upstream response would (Kong runs them on kong.response.exit answers too).
function sendThroughPlugins(res: ServerResponse, plugins: PluginContext, status: number, headers: string[], first: Buffer): void {
  const head = new ResponseHead(status, headers, 'kong');
  runHeaderFilter(plugins, head);
  let body = first;
  const transform = openBodyFilter(plugins, head);
  if (transform !== undefined) {
    const parts = [transform.write(body), transform.end()].filter((b): b is Buffer => b !== undefined);
    // The gateway's own answers are small: one the budget cannot hold goes as it is.
    if (transform.refused !== true) body = Buffer.concat(parts);
    transform.release?.();
  }
  head.remove('Content-Length');
  if (!bodiless(head.status)) head.headers.push('Content-Length', String(body.length));
  res.writeHead(head.status, head.headers);
  res.end(body);
  plugins.responseHeaders = head.headers;
  plugins.responseSize = head.byteLength() + body.length;
}
