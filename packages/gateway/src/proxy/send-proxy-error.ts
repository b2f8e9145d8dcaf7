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
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const error = new GatewayError(code);
  const { contentType, body } = renderKongError(error.message, accept, requestId);
  res.writeHead(error.status, {
    'Content-Type': contentType,
    'Content-Length': Buffer.byteLength(body),
    Server: SERVER,
    'X-Kong-Request-Id': requestId,
    ...extraHeaders,
  });
  res.end(body);
}
