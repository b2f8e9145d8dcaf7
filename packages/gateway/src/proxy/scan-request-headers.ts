/** What one pass over the client's raw headers yields. */
export type ScannedRequestHeaders = {
  /** The Host header, if any. */
  host: string | undefined;
  /** The client's X-Forwarded-For, to append to. */
  forwardedFor: string | undefined;
  /** The client's Via, to append to. */
  via: string | undefined;
  /** Header lines passed through to the upstream, each ending in CRLF. */
  passthrough: string;
  /** Content-Length of the request body, or -1. */
  contentLength: number;
  /** The client sent Transfer-Encoding: chunked. */
  chunked: boolean;
  /**
   * Every raw header's name lower-cased (entry k names rawHeaders[2k]): the plugins' header
   * lookups and edits compare against these instead of lower-casing again per lookup.
   */
  names: string[];
  /** Fields the client's Connection header named (hop-by-hop, left out of `passthrough`). */
  hopByHop: string[] | undefined;
};

// RFC 9110 §7.6.1 hop-by-hop fields, plus those the gateway sets itself (Kong's nginx template
// proxy_set_header list: Host, X-Forwarded-*, X-Real-IP, Via) and Expect (the gateway answers
// 100-continue itself and streams the body).
const DROPPED = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer',
  'transfer-encoding', 'upgrade', 'content-length', 'expect', 'host', 'x-forwarded-for', 'x-forwarded-proto',
  'x-forwarded-host', 'x-forwarded-port', 'x-forwarded-path', 'x-forwarded-prefix', 'x-real-ip', 'via',
  'x-kong-request-id',
]);

/**
 * One pass over node's `rawHeaders`: the headers the gateway reads, and the rest serialised for
 * the upstream request head. Values are already validated by node's parser (no CR/LF).
 */
export function scanRequestHeaders(raw: readonly string[]): ScannedRequestHeaders {
  const out: ScannedRequestHeaders = {
    host: undefined, forwardedFor: undefined, via: undefined, passthrough: '', contentLength: -1, chunked: false, names: [], hopByHop: undefined,
  };
  let connectionTokens: string[] | undefined;
  let passthrough = '';
  const names = out.names;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    const lower = name.toLowerCase();
    names.push(lower);
    if (!DROPPED.has(lower)) {
      passthrough += name + ': ' + value + '\r\n';
      continue;
    }
    switch (lower) {
      case 'host':
        out.host ??= value;
        break;
      case 'x-forwarded-for':
        out.forwardedFor = out.forwardedFor === undefined ? value : out.forwardedFor + ', ' + value;
        break;
      case 'via':
        out.via = out.via === undefined ? value : out.via + ', ' + value;
        break;
      case 'content-length':
        out.contentLength = Number(value);
        break;
      case 'transfer-encoding':
        if (value.toLowerCase().includes('chunked')) out.chunked = true;
        break;
      case 'connection':
        for (const token of value.split(',')) {
          const t = token.trim().toLowerCase();
          if (t !== '' && t !== 'close' && t !== 'keep-alive') (connectionTokens ??= []).push(t);
        }
        break;
    }
  }
  if (connectionTokens !== undefined) passthrough = dropNamed(passthrough, connectionTokens);
  out.passthrough = passthrough;
  out.hopByHop = connectionTokens;
  return out;
}

/** Whether the client's header lines named `lower` (lower-case) are left out of `scanned.passthrough`. */
export function withheld(scanned: ScannedRequestHeaders, lower: string): boolean {
  return DROPPED.has(lower) || scanned.hopByHop?.includes(lower) === true;
}

// RFC 9110 §7.6.1: fields named in Connection are hop-by-hop too. Rare, so done as a second pass.
function dropNamed(lines: string, names: readonly string[]): string {
  return lines
    .split('\r\n')
    .filter((line) => line !== '' && !names.includes(line.slice(0, line.indexOf(':')).toLowerCase()))
    .map((line) => line + '\r\n')
    .join('');
}

/** Response fields never relayed to the client (RFC 9110 §7.6.1); node re-frames the body. */
export const HOP_BY_HOP_RESPONSE = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade',
]);
