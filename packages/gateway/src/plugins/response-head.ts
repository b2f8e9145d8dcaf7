// A response head as Kong's header_filter phase sees it (kong.response.get_status/get_header/
// set_header/add_header/clear_header): the status and the raw header list the proxy writes, so
// an edit costs nothing on responses whose route has no header_filter.
import { lowerName } from './lower-name.ts';

/** A streaming body transform (Kong's body_filter): bytes in, bytes out; `end` flushes what is held. */
export type BodyTransform = {
  /** One chunk of the body (owned by the transform); returns what to send now, if anything. */
  write(chunk: Buffer): Buffer | undefined;
  /** The body is complete: returns what remains to send. */
  end(): Buffer | undefined;
  /** It only observes (every chunk out as it came in): the response keeps its Content-Length. */
  readonly passthrough?: boolean;
  /**
   * It holds the whole body and sends it at end (response-transformer's JSON edits): the head
   * waits for the body, so the answer can still be an error when the body cannot be held.
   */
  readonly holdsBody?: boolean;
  /** True once it could not hold the body (the process's budget is spent): nothing more comes out. */
  readonly refused?: boolean;
  /** Refused because the body itself is bigger than a transform may hold (the answer is a 502, not a 503). */
  readonly tooLarge?: boolean;
  /** The response is over (the client has it, or is gone): what it held is let go. */
  release?(): void;
};

const BREAKS_LINE = /[\r\n\0]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// Names plugins set come from their code and configuration: each is checked once (bounded).
const VALID_NAMES = new Set<string>();

function validName(name: string): boolean {
  if (VALID_NAMES.has(name)) return true;
  if (!TOKEN.test(name)) return false;
  if (VALID_NAMES.size < 1024) VALID_NAMES.add(name);
  return true;
}

// Case-insensitive name equality against a lower-case name, without allocating: header_filter
// hooks set several headers per response, each one a scan of the whole head.
function sameName(name: string, lower: string): boolean {
  const n = name.length;
  if (n !== lower.length) return false;
  if (name === lower) return true;
  for (let i = 0; i < n; i++) {
    let c = name.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    if (c !== lower.charCodeAt(i)) return false;
  }
  return true;
}

/** The status and headers about to be sent to the client. */
export class ResponseHead {
  status: number;
  /** Raw pairs: name, value, name, value… (the form the proxy writes). */
  readonly headers: string[];
  /** 'upstream' for the service's response, 'kong' for the gateway's own answer (kong.response.get_source). */
  readonly source: 'upstream' | 'kong';

  constructor(status: number, headers: string[], source: 'upstream' | 'kong') {
    this.status = status;
    this.headers = headers;
    this.source = source;
  }

  /** kong.response.get_header: the first value, case-insensitively. */
  get(name: string): string | undefined {
    const lower = lowerName(name);
    const h = this.headers;
    for (let i = 0; i < h.length; i += 2) if (sameName(h[i]!, lower)) return h[i + 1];
    return undefined;
  }

  /** Every value of `name`. */
  getAll(name: string): string[] {
    const lower = lowerName(name);
    const out: string[] = [];
    const h = this.headers;
    for (let i = 0; i < h.length; i += 2) if (sameName(h[i]!, lower)) out.push(h[i + 1]!);
    return out;
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** kong.response.clear_header. */
  remove(name: string): void {
    this.#removeLower(lowerName(name));
  }

  #removeLower(lower: string): void {
    const h = this.headers;
    for (let i = h.length - 2; i >= 0; i -= 2) if (sameName(h[i]!, lower)) h.splice(i, 2);
  }

  /** kong.response.set_header: replaces every value. A value that would break the header line is refused. */
  set(name: string, value: string): void {
    this.remove(name);
    this.add(name, value);
  }

  /**
   * set() for a name and value the caller checked once (a plugin's own header names, the numbers
   * and ids it makes): `lower` is the name lower-cased, the name a token, the value free of line
   * breaks. Skips the per-call lower-casing and checks: rate-limiting sets five headers a response.
   */
  setKnown(lower: string, name: string, value: string): void {
    this.#removeLower(lower);
    this.headers.push(name, value);
  }

  /** add() for a name and value the caller checked once, as setKnown. */
  addKnown(name: string, value: string): void {
    this.headers.push(name, value);
  }

  /** kong.response.add_header: one more value. */
  add(name: string, value: string): void {
    if (BREAKS_LINE.test(value) || !validName(name)) throw new TypeError(`invalid header ${name}`);
    this.headers.push(name, value);
  }

  /** The head's size on the wire (HTTP/1.1 status line and header lines): Kong's bytes_sent counts it. */
  byteLength(): number {
    let n = 17; // "HTTP/1.1 200 OK\r\n" give or take the reason, plus the closing CRLF.
    const h = this.headers;
    for (let i = 0; i < h.length; i += 2) n += h[i]!.length + h[i + 1]!.length + 4;
    return n;
  }
}

/** Several transforms as one, in order: each one's output is the next one's input. */
export function chainTransforms(transforms: readonly BodyTransform[]): BodyTransform {
  if (transforms.length === 1) return transforms[0]!;
  const through = (from: number, chunk: Buffer | undefined): Buffer | undefined => {
    let c = chunk;
    for (let i = from; i < transforms.length && c !== undefined; i++) c = transforms[i]!.write(c);
    return c;
  };
  return {
    passthrough: transforms.every((t) => t.passthrough === true),
    holdsBody: transforms.some((t) => t.holdsBody === true),
    get refused() {
      return transforms.some((t) => t.refused === true);
    },
    get tooLarge() {
      return transforms.some((t) => t.tooLarge === true);
    },
    release() {
      for (const t of transforms) t.release?.();
    },
    write: (chunk) => through(0, chunk),
    end() {
      const parts: Buffer[] = [];
      for (let i = 0; i < transforms.length; i++) {
        const flushed = transforms[i]!.end();
        const out = flushed === undefined ? undefined : through(i + 1, flushed);
        if (out !== undefined) parts.push(out);
        // What later transforms held is flushed by their own end() in the next iterations.
      }
      return parts.length === 0 ? undefined : Buffer.concat(parts);
    },
  };
}
