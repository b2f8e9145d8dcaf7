import { Http2ServerResponse } from 'node:http2';
import type { OutgoingHttpHeaders } from 'node:http';
import { http2ResponseFields, isHttp2ResponseField, isSingleValueField, type ResponseFields } from './http2-response-fields.ts';

/**
 * The response to an HTTP request over HTTP/2 (createHttp2HttpSide): takes what the proxy writes
 * for HTTP/1.1 (a status message, which HTTP/2 does not have; connection-specific fields; a
 * field node:http2 sends once only, repeated) and sends its HTTP/2 form (http2-response-fields.ts).
 */
export class Http2ProxyResponse extends Http2ServerResponse {
  override writeHead(status: number, messageOrHeaders?: string | ResponseFields, headers?: ResponseFields): this {
    const fields = typeof messageOrHeaders === 'string' ? headers : messageOrHeaders;
    super.writeHead(status, http2ResponseFields(fields) as OutgoingHttpHeaders);
    return this;
  }

  override setHeader(name: string, value: number | string | readonly string[]): void {
    const lower = name.toLowerCase();
    if (!isHttp2ResponseField(lower)) return;
    const list = Array.isArray(value) ? (value as readonly string[]) : undefined;
    super.setHeader(name, list !== undefined && list.length > 1 && isSingleValueField(lower) ? list[0]! : value);
  }
}
