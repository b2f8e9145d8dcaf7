import { Http2ServerResponse } from 'node:http2';
import type { OutgoingHttpHeaders } from 'node:http';

// RFC 9113 §8.2.2: connection-specific fields must not appear in HTTP/2 (node:http2 throws on
// them). An upstream's are dropped as hop-by-hop already; these come from the gateway's own
// answers (Connection: close after a refused body, 426's Upgrade).
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

type Headers = OutgoingHttpHeaders | readonly string[];

function withoutConnectionFields(headers: Headers | undefined): Headers | undefined {
  if (headers === undefined) return undefined;
  if (Array.isArray(headers)) {
    const list = headers as readonly string[];
    const out: string[] = [];
    for (let i = 0; i < list.length; i += 2) {
      if (!CONNECTION_SPECIFIC.has(list[i]!.toLowerCase())) out.push(list[i]!, list[i + 1]!);
    }
    return out;
  }
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!CONNECTION_SPECIFIC.has(name.toLowerCase())) out[name] = value;
  return out;
}

/**
 * The response to an HTTP request over HTTP/2 (createHttp2HttpSide): takes what the proxy writes for HTTP/1.1 (a status
 * message, which HTTP/2 does not have; connection-specific fields) and sends its HTTP/2 form.
 */
export class Http2ProxyResponse extends Http2ServerResponse {
  override writeHead(status: number, messageOrHeaders?: string | Headers, headers?: Headers): this {
    const fields = typeof messageOrHeaders === 'string' ? headers : messageOrHeaders;
    super.writeHead(status, withoutConnectionFields(fields) as OutgoingHttpHeaders);
    return this;
  }

  override setHeader(name: string, value: number | string | readonly string[]): void {
    if (!CONNECTION_SPECIFIC.has(name.toLowerCase())) super.setHeader(name, value);
  }
}
