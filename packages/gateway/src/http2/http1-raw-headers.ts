/**
 * The header list of an HTTP/2 request as the proxy's HTTP/1.1 side reads it (rawHeaders
 * pairs): pseudo-header fields dropped, `:authority` as Host when the client sent no Host
 * (RFC 9113 §8.3.1), split cookie fields joined into one (§8.2.3), and `Transfer-Encoding:
 * chunked` for a body without Content-Length (`hasBody`: the HEADERS frame did not end the
 * stream), since the upstream leg speaks HTTP/1.1 and streams the body as it comes.
 */
export function http1RawHeaders(raw: readonly string[], hasBody: boolean): string[] {
  const out: string[] = [];
  let authority: string | undefined;
  let host = false;
  let length = false;
  let cookies: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    const value = raw[i + 1]!;
    if (name.charCodeAt(0) === 58 /* : */) {
      if (name === ':authority') authority = value;
      continue;
    }
    // HTTP/2 field names arrive lower-case (§8.2.1): compared as they are.
    if (name === 'cookie') {
      cookies = cookies === undefined ? value : cookies + '; ' + value;
      continue;
    }
    if (name === 'host') host = true;
    else if (name === 'content-length') length = true;
    out.push(name, value);
  }
  if (!host && authority !== undefined) out.unshift('host', authority);
  if (cookies !== undefined) out.push('cookie', cookies);
  if (hasBody && !length) out.push('transfer-encoding', 'chunked');
  return out;
}
