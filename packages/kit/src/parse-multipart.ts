/** One part of a multipart body: its headers (lower-case names) and bytes. */
export type Part = { readonly headers: ReadonlyMap<string, string>; readonly body: Buffer };

/** A multipart body this parser refuses; each surface answers it in its own error shape. */
export class MultipartError extends Error {
  override readonly name = 'MultipartError';
}

const MAX_HEADER_BYTES = 8 * 1024;

function bad(detail: string): never {
  throw new MultipartError(detail);
}

/** The boundary of a multipart Content-Type (RFC 2046 §5.1.1: 1-70 characters). */
export function boundaryOf(contentType: string | undefined): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) bad('the Content-Type names no boundary.');
  return boundary;
}

/**
 * The parts of a multipart body (RFC 2046 §5.1): between `--boundary` delimiters, each a block
 * of header lines, a blank line, and the bytes up to the CRLF before the next delimiter. The
 * preamble and epilogue are skipped; a body without its closing `--boundary--` is refused, so a
 * truncated upload is never read as a shorter one. Parts are views into `body` (no copies), and
 * at most `maxParts` are read (`what` says what they are, in the refusal): a body of countless
 * tiny parts costs one bounded scan, where a general form parser would hold the event loop.
 */
export function parseMultipart(body: Buffer, boundary: string, maxParts: number, what = 'parts'): Part[] {
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) bad('the body holds no part.');
  const parts: Part[] = [];
  for (;;) {
    let start = at + delimiter.length;
    // `--` right after a delimiter closes the body.
    if (body[start] === 0x2d && body[start + 1] === 0x2d) return parts;
    // Transport padding, then the CRLF ending the delimiter line.
    while (body[start] === 0x20 || body[start] === 0x09) start++;
    if (body[start] === 0x0d && body[start + 1] === 0x0a) start += 2;
    else bad('a boundary line does not end with CRLF.');
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), start);
    if (next < 0) bad('the closing boundary is missing (a truncated upload?).');
    if (parts.length >= maxParts) bad(`at most ${maxParts} ${what}.`);
    parts.push(parsePart(body.subarray(start, next)));
    at = next + 2;
  }
}

function parsePart(raw: Buffer): Part {
  const end = raw.indexOf('\r\n\r\n');
  // A part may have no headers at all: then it starts with the blank line.
  const headerEnd = raw.subarray(0, 2).toString() === '\r\n' ? 0 : end;
  if (headerEnd < 0) bad('a part has no blank line after its headers.');
  if (headerEnd > MAX_HEADER_BYTES) bad(`a part's headers exceed ${MAX_HEADER_BYTES} bytes.`);
  const headers = new Map<string, string>();
  for (const line of raw.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) bad(`a part header is malformed: "${line.slice(0, 60)}".`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body: raw.subarray(headerEnd === 0 ? 2 : headerEnd + 4) };
}

/** The parameters of a Content-Disposition value (`file; filename="a b.pdf";documentid=2`), names lower-cased. */
export function dispositionParams(value: string | undefined): Map<string, string> {
  const params = new Map<string, string>();
  for (const m of (value ?? '').matchAll(/;\s*([A-Za-z0-9_*-]+)\s*=\s*(?:"([^"]*)"|([^;]*))/g)) {
    params.set((m[1] ?? '').toLowerCase(), (m[2] ?? m[3] ?? '').trim());
  }
  return params;
}
