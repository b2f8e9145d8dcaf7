// A TLS ClientHello reader for tls_passthrough routing (the part of nginx ssl_preread Kong uses):
// it finds the server name without terminating TLS. Pure: bytes in, verdict out.
// Formats: RFC 8446 §5.1 (record layer), §4.1.2 (ClientHello), RFC 6066 §3 (server_name),
// RFC 7301 §3.1 (ALPN). TLS 1.0-1.3 ClientHellos share this layout.

/** What the bytes read so far say. */
export type ClientHelloResult =
  | { readonly kind: 'need_more' }
  | { readonly kind: 'not_tls'; readonly reason: string }
  | {
      readonly kind: 'client_hello';
      /** The host_name of the server_name extension, lower-cased; undefined when absent. */
      readonly serverName: string | undefined;
      /** ALPN protocol names offered, in the client's order. */
      readonly alpn: readonly string[];
    };

const RECORD_HANDSHAKE = 0x16;
const HANDSHAKE_CLIENT_HELLO = 0x01;
const EXT_SERVER_NAME = 0x0000;
const EXT_ALPN = 0x0010;
const NAME_TYPE_HOST_NAME = 0x00;
/** RFC 8446 §5.1: a record's plaintext is at most 2^14 bytes. */
const MAX_RECORD = 16384;
/** A ClientHello this large is not one we route (real ones are well under 4 KiB). */
export const MAX_CLIENT_HELLO = 65536;

const NEED_MORE: ClientHelloResult = { kind: 'need_more' };
const notTls = (reason: string): ClientHelloResult => ({ kind: 'not_tls', reason });

/**
 * Reads the ClientHello at the start of a connection. Call again with more bytes while it says
 * `need_more`; the handshake message may span several records, which are reassembled.
 */
export function parseClientHello(bytes: Uint8Array): ClientHelloResult {
  // Reassemble the handshake message from the records' fragments.
  const fragments: Uint8Array[] = [];
  let have = 0;
  let want = -1;
  let offset = 0;
  for (;;) {
    if (bytes.length - offset < 5) return bytes.length - offset === 0 || prefixLooksTls(bytes, offset) ? NEED_MORE : notTls('short record header');
    if (bytes[offset] !== RECORD_HANDSHAKE) return notTls('first record is not a handshake record');
    if (bytes[offset + 1] !== 0x03) return notTls('unknown record version');
    const length = (bytes[offset + 3]! << 8) | bytes[offset + 4]!;
    if (length === 0 || length > MAX_RECORD) return notTls('bad record length');
    if (bytes.length - offset - 5 < length) {
      // Enough of the first record to reject early what is not a ClientHello.
      if (want === -1 && bytes.length - offset > 5 && bytes[offset + 5] !== HANDSHAKE_CLIENT_HELLO) return notTls('not a ClientHello');
      return NEED_MORE;
    }
    const fragment = bytes.subarray(offset + 5, offset + 5 + length);
    offset += 5 + length;
    fragments.push(fragment);
    have += fragment.length;
    if (want === -1 && have >= 4) {
      const head = concat(fragments, have);
      if (head[0] !== HANDSHAKE_CLIENT_HELLO) return notTls('not a ClientHello');
      want = 4 + ((head[1]! << 16) | (head[2]! << 8) | head[3]!);
      if (want > MAX_CLIENT_HELLO) return notTls('ClientHello too large');
    }
    if (want !== -1 && have >= want) return readClientHello(concat(fragments, have).subarray(4, want));
  }
}

function prefixLooksTls(bytes: Uint8Array, offset: number): boolean {
  if (bytes[offset] !== RECORD_HANDSHAKE) return false;
  return bytes.length - offset < 2 || bytes[offset + 1] === 0x03;
}

function concat(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The ClientHello body (after the 4-byte handshake header). */
function readClientHello(body: Uint8Array): ClientHelloResult {
  const r = new Reader(body);
  // legacy_version(2) random(32) legacy_session_id<0..32> cipher_suites<2..2^16-2> legacy_compression_methods<1..2^8-1>
  if (!r.skip(2 + 32) || !r.skipVector(1) || !r.skipVector(2) || !r.skipVector(1)) return notTls('truncated ClientHello');
  if (r.remaining === 0) return { kind: 'client_hello', serverName: undefined, alpn: [] }; // no extensions (TLS ≤ 1.2)
  const extensions = r.vector(2);
  if (extensions === undefined || r.remaining !== 0) return notTls('bad extensions block');
  let serverName: string | undefined;
  let alpn: string[] = [];
  const seen = new Set<number>();
  while (extensions.remaining > 0) {
    const type = extensions.u16();
    const data = extensions.vector(2);
    if (type === undefined || data === undefined) return notTls('truncated extension');
    // RFC 8446 §4.2: one extension of a type at most.
    if (seen.has(type)) return notTls('duplicate extension');
    seen.add(type);
    if (type === EXT_SERVER_NAME) {
      const name = readServerName(data);
      if (name === null) return notTls('bad server_name extension');
      serverName = name;
    } else if (type === EXT_ALPN) {
      const list = readAlpn(data);
      if (list === undefined) return notTls('bad ALPN extension');
      alpn = list;
    }
  }
  return { kind: 'client_hello', serverName, alpn };
}

/** RFC 6066 §3: ServerNameList; the host_name entry (at most one), or null when malformed. */
function readServerName(data: Reader): string | undefined | null {
  const list = data.vector(2);
  if (list === undefined || data.remaining !== 0) return null;
  let name: string | undefined;
  while (list.remaining > 0) {
    const type = list.u8();
    const value = list.vector(2);
    if (type === undefined || value === undefined) return null;
    if (type !== NAME_TYPE_HOST_NAME) continue;
    if (name !== undefined) return null;
    const text = value.text();
    // A DNS host name in ASCII (no trailing dot, RFC 6066); anything else is not routable.
    if (!/^[A-Za-z0-9_*.-]{1,255}$/.test(text) || text.endsWith('.')) return null;
    name = text.toLowerCase();
  }
  return name;
}

/** RFC 7301 §3.1: ProtocolNameList. */
function readAlpn(data: Reader): string[] | undefined {
  const list = data.vector(2);
  if (list === undefined || data.remaining !== 0) return undefined;
  const out: string[] = [];
  while (list.remaining > 0) {
    const name = list.vector(1);
    if (name === undefined || name.remaining === 0) return undefined;
    out.push(name.text());
  }
  return out;
}

/** A bounds-checked cursor; every read returns undefined past the end. */
class Reader {
  readonly #bytes: Uint8Array;
  #at = 0;
  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }
  get remaining(): number {
    return this.#bytes.length - this.#at;
  }
  skip(n: number): boolean {
    if (this.remaining < n) return false;
    this.#at += n;
    return true;
  }
  u8(): number | undefined {
    return this.remaining < 1 ? undefined : this.#bytes[this.#at++];
  }
  u16(): number | undefined {
    if (this.remaining < 2) return undefined;
    const v = (this.#bytes[this.#at]! << 8) | this.#bytes[this.#at + 1]!;
    this.#at += 2;
    return v;
  }
  /** A vector with a `lengthBytes`-byte length prefix, as a sub-reader. */
  vector(lengthBytes: 1 | 2): Reader | undefined {
    const n = lengthBytes === 1 ? this.u8() : this.u16();
    if (n === undefined || this.remaining < n) return undefined;
    const sub = new Reader(this.#bytes.subarray(this.#at, this.#at + n));
    this.#at += n;
    return sub;
  }
  skipVector(lengthBytes: 1 | 2): boolean {
    return this.vector(lengthBytes) !== undefined;
  }
  text(): string {
    return Buffer.from(this.#bytes.buffer, this.#bytes.byteOffset + this.#at, this.remaining).toString('latin1');
  }
}
