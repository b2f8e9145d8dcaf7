import type { ServerResponse } from 'node:http';
import { GatewayError, renderKongError, type GatewayErrorCode } from '../errors.ts';
import { SERVER } from './kong-headers.ts';

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
): void {
  const error = new GatewayError(code);
  sendKongResponse(res, error.status, error.message, accept, requestId, extraHeaders);
}

/**
 * kong.response.error(status, message, headers) for any status and message: how plugins answer
 * in the upstream's place (their messages are Kong's, written in each plugin's handler).
 */
export function sendKongResponse(
  res: ServerResponse,
  status: number,
  message: string | Readonly<Record<string, unknown>>,
  accept: string | undefined,
  requestId: string,
  extraHeaders?: Readonly<Record<string, string>>,
): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // A table body (kong.response.exit) is sent as JSON as is; a message in Kong's error format.
  const { contentType, body } = typeof message === 'string'
    ? renderKongError(message, accept, requestId)
    : { contentType: 'application/json; charset=utf-8', body: JSON.stringify(message) };
  res.writeHead(status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    Server: SERVER,
    'X-Kong-Request-Id': requestId,
    ...extraHeaders,
  });
  res.end(body);
}
