// One request as the access phase of plugins sees and changes it (Kong's PDK, reduced to what
// the implemented plugins use): request headers and query arguments read from the raw
// request, the authenticated consumer and credential, and the edits to the upstream request.
import type { Socket } from 'node:net';
import type { Consumer, Route, Service } from '../declarative/types.ts';
import type { PluginHooks } from './plugin-handler.ts';
import { lowerName } from './lower-name.ts';
import { HeaderEdits, type HeaderEdit } from './header-edits.ts';
import { validateHostWithOptionalPort } from '../declarative/host-names.ts';

/** What kong.client.authenticate records: the credential's id and consumer (X-Credential-Identifier). */
export type AuthenticatedCredential = {
  /** What X-Credential-Identifier carries (key-auth: the credential id; basic-auth: the username). */
  readonly identifier: string;
  readonly consumerId: string;
};

/** A plugin's answer in place of the upstream's (kong.response.error). */
export type PluginExit = {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * kong.response.exit with a table: this exact JSON body instead of the error format
   * (no request_id, whatever the client's Accept); `message` stays for gRPC answers. `null`:
   * no body at all (kong.response.exit(status) alone, as cors answers a preflight).
   */
  readonly body?: Readonly<Record<string, unknown>> | null;
  /** kong.response.exit with a string: sent as is, without Content-Type (Kong's proxy default_type is ''). */
  readonly text?: string;
  /**
   * A stored upstream response sent again (proxy-cache's hit): these headers and this body, with
   * the headers Kong adds to a proxied response (Via, X-Kong-*-Latency), not an error's.
   */
  readonly replay?: { readonly headers: readonly string[]; readonly body: Buffer };
};

export type { HeaderEdit } from './header-edits.ts';

/** Where the client's whole body is read from, bounded (undefined past the bound), when a plugin asks. */
export interface BodySource {
  read(): Promise<Buffer | undefined>;
}

/** A query argument as Kong's get_query() gives it: a value, `true` without `=`, or a list when repeated. */
export type QueryArg = string | true | readonly (string | true)[] | undefined;

// ngx.req.get_uri_args: '+' is a space, %XX decoded; a malformed escape is kept as written.
function decodeArg(s: string): string {
  const spaced = s.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

// ngx.encode_args (ngx.escape_uri): everything but unreserved characters percent-encoded.
const encodeArg = (s: string): string => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

// A character that would end or corrupt a header line.
const BREAKS_LINE = /[\r\n\0]/;

function lowerNames(raw: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) out.push(raw[i]!.toLowerCase());
  return out;
}

/** Headers the proxy frames the upstream request with: no plugin may set them (plugin-context setHeader). */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'keep-alive', 'te', 'trailer', 'upgrade', 'proxy-connection']);

/** ngx.encode_args on a table: repeated names for lists, a bare name for `true`. */
export function encodeArgs(args: Iterable<readonly [string, string | true | readonly (string | true)[]]>): string {
  const out: string[] = [];
  for (const [k, v] of args) {
    for (const one of Array.isArray(v) ? (v as readonly (string | true)[]) : [v as string | true]) out.push(one === true ? encodeArg(k) : `${encodeArg(k)}=${encodeArg(one)}`);
  }
  return out.join('&');
}

/** The per-request state of the plugin phases. */
export class PluginContext {
  readonly method: string;
  /** The request target as the client sent it (kong.request.get_path_with_query). */
  readonly target: string;
  /** "1.1", "1.0" or "2.0" (kong.request.get_http_version, as hmac-auth's request-line shows it). */
  readonly httpVersion: string;
  readonly #rawHeaders: readonly string[];
  #names: readonly string[] | undefined;
  readonly #query: string;
  #args: [string, string | true][] | undefined;
  /** kong.client.get_ip(): the client address as the real_ip settings decide (set by the proxy). */
  clientIp = '';
  /** kong.router.get_route().id: the matched route (set by the proxy). */
  routeId: string | undefined;
  /** kong.router.get_route(), get_service(): the matched entities (set by the proxy). */
  route: Route | undefined;
  service: Service | undefined;
  /** kong.request.get_scheme(), get_port(): the listener the request came in on (set by the proxy). */
  scheme: 'http' | 'https' = 'http';
  port = 0;
  /** kong.router.get_service().id: the matched route's service (set by the proxy). */
  serviceId: string | undefined;
  /** kong.client.get_consumer(). */
  consumer: Consumer | undefined;
  /** kong.client.get_credential(). */
  credential: AuthenticatedCredential | undefined;
  /** Groups an authentication plugin vouched for (Kong's ctx.authenticated_groups); none implemented yet. */
  authenticatedGroups: readonly string[] | undefined;
  /** Upstream header edits by lower-case name: set to [name, value or values], or removed (null). */
  headerEdits: HeaderEdits | undefined;
  /** kong.service.request.set_query: the whole upstream query string (without `?`), replacing the client's. */
  queryOverride: string | undefined;
  /** kong.service.request.set_path: the upstream path, replacing the route's. */
  upstreamPath: string | undefined;
  /** kong.service.request.set_method. */
  upstreamMethod: string | undefined;
  #upstreamHost: string | undefined;
  /**
   * A plugin edits the whole request body: the proxy reads it (up to a bound) once the access
   * phase is over and sends what this returns (undefined: unchanged).
   */
  requestBodyTransform: ((body: Buffer) => Buffer | undefined) | undefined;
  /**
   * Reads the client's whole body, bounded (undefined past the bound); set by the HTTP proxy.
   * Absent where the body cannot be held (gRPC streams): rawBody() is then undefined.
   */
  bodySource: BodySource | undefined;
  #body: Buffer | undefined | Promise<Buffer | undefined>;
  #bodyAsked = false;
  /** kong.service.request.set_raw_body: the upstream body, replacing the client's. */
  upstreamBody: Buffer | undefined;
  /**
   * The most request body bytes the upstream may get, and the status refusing more
   * (request-size-limiting): the proxy counts the body as it streams, without buffering it.
   */
  requestBodyLimit: { readonly bytes: number; readonly status: number } | undefined;
  /** The route's regex captures (Kong's uri_captures): numbered and named; '0' the whole match. */
  uriCaptures: Readonly<Record<string, string | undefined>> | undefined;
  /** Query arguments removed from the upstream request. */
  clearedArgs: Set<string> | undefined;
  /** The hooks the access phase chose per plugin, for header_filter, body_filter and log (Kong's ctx.plugins). */
  collected: PluginHooks[] | undefined;
  /**
   * Kong's ngx.ctx for plugins: per-request values one phase leaves for a later one, by plugin
   * name. A plain object, not a Map: its few constant keys cost V8 no hash table per request.
   */
  shared: Record<string, unknown> | undefined;
  /** kong.log.set_serialize_value: fields added to the log serializer's entry. */
  serializeValues: Record<string, unknown> | undefined;
  /** The client connection (tracker ids, client address); set by the proxy. */
  socket: Socket | undefined;
  /** performance.now() when the request arrived; set by the proxy. */
  startedAt = 0;
  /** The request id (X-Kong-Request-Id); set by the proxy. */
  requestId = '';
  /** Where a failing header_filter or log hook is reported (the worker's log). */
  logError: ((err: unknown) => void) | undefined;
  /** The response head as sent (for the log phase), and the bytes sent: head and body. */
  responseHeaders: readonly string[] | undefined;
  responseSize = 0;

  /**
   * `names`: each raw header's name lower-cased (entry k for rawHeaders[2k]), when the caller has
   * them already (the HTTP proxy's header scan); made on the first lookup otherwise.
   */
  constructor(method: string, rawHeaders: readonly string[], query: string, target = '/', httpVersion = '1.1', names?: readonly string[]) {
    this.method = method;
    this.target = target;
    this.httpVersion = httpVersion;
    this.#rawHeaders = rawHeaders;
    this.#query = query;
    this.#names = names;
  }

  /**
   * kong.request.get_headers()[name]: the value, or a list when the header came several times.
   * As in nginx's lookup, `api_key` also finds `api-key`.
   */
  header(name: string): string | readonly string[] | undefined {
    const lower = lowerName(name);
    const found = this.#values(lower);
    if (found === undefined && lower.includes('_')) return this.#values(lower.replace(/_/g, '-'));
    return found;
  }

  /** kong.request.get_header(name): the first value. */
  firstHeader(name: string): string | undefined {
    const v = this.header(name);
    return typeof v === 'string' ? v : v?.[0];
  }

  #values(lower: string): string | string[] | undefined {
    let out: string | string[] | undefined;
    const raw = this.#rawHeaders;
    const names = (this.#names ??= lowerNames(raw));
    for (let k = 0; k < names.length; k++) {
      if (names[k] !== lower) continue;
      const v = raw[2 * k + 1]!;
      out = out === undefined ? v : typeof out === 'string' ? [out, v] : [...out, v];
    }
    return out;
  }

  #parsedArgs(): [string, string | true][] {
    if (this.#args !== undefined) return this.#args;
    const args: [string, string | true][] = [];
    for (const part of this.#query.split('&')) {
      if (part === '') continue;
      const eq = part.indexOf('=');
      args.push(eq === -1 ? [decodeArg(part), true] : [decodeArg(part.slice(0, eq)), decodeArg(part.slice(eq + 1))]);
    }
    return (this.#args = args);
  }

  /** Every query argument in order, as parsed. */
  queryArgs(): readonly (readonly [string, string | true])[] {
    return this.#parsedArgs();
  }

  /**
   * kong.request.get_raw_body: the client's body, read the first time a plugin asks (a promise
   * then) and kept, so a route whose plugins never ask still streams it. Undefined when it
   * cannot be read: larger than the proxy's bound, or a gRPC call.
   */
  rawBody(): Buffer | undefined | Promise<Buffer | undefined> {
    if (this.#bodyAsked) return this.#body;
    this.#bodyAsked = true;
    if (this.bodySource === undefined) return undefined;
    return (this.#body = this.bodySource.read().then((body) => (this.#body = body)));
  }

  /** Whether a plugin had the client's body read: the proxy then forwards what was read. */
  get bodyRead(): boolean {
    return this.#bodyAsked && this.bodySource !== undefined;
  }

  /** The query string as sent, without `?`. */
  get rawQuery(): string {
    return this.#query;
  }

  /** The request headers as received, raw pairs. */
  get rawHeaders(): readonly string[] {
    return this.#rawHeaders;
  }

  /** kong.request.get_query()[name]. */
  queryArg(name: string): QueryArg {
    const values = this.#parsedArgs().filter(([k]) => k === name).map(([, v]) => v);
    return values.length === 0 ? undefined : values.length === 1 ? values[0] : values;
  }

  /**
   * kong.service.request.set_header; a value that would break the header line is refused (Kong
   * errors too), and so are the framing headers the proxy writes itself: a second Content-Length
   * or Transfer-Encoding line would let the upstream frame the request differently (smuggling).
   */
  setHeader(name: string, value: string | readonly string[]): void {
    const lower = lowerName(name);
    if (FRAMING_HEADERS.has(lower)) throw new TypeError(`header ${name} is set by the gateway itself`);
    if (typeof value === 'string' ? BREAKS_LINE.test(value) : value.some((v) => BREAKS_LINE.test(v))) throw new TypeError(`invalid value for header ${name}`);
    this.#edit(lower, [name, value]);
  }

  /** The Host header for the upstream (request-transformer's replace of `host`), set by setUpstreamHost. */
  get upstreamHost(): string | undefined {
    return this.#upstreamHost;
  }

  /**
   * kong.service.request.set_header('host', …) (Kong's upstream_host). A template renders the
   * client's decoded input into it ($(query_params.x)), so anything but a host[:port] (Kong's
   * host_with_optional_port) is refused as setHeader refuses a bad value: a CR LF here would end
   * the Host line and smuggle a second request onto the upstream connection.
   */
  setUpstreamHost(value: string): void {
    if (validateHostWithOptionalPort(value) !== undefined) throw new TypeError('invalid value for header host');
    this.#upstreamHost = value;
  }

  #edit(lower: string, edit: HeaderEdit): void {
    if (this.headerEdits === undefined) this.headerEdits = new HeaderEdits(lower, edit);
    else this.headerEdits.set(lower, edit);
  }

  /**
   * setHeader for a name the caller checked once, when its configuration loaded (`lower` its
   * lower case, not a framing header), and a value it made itself (no line break): what
   * correlation-id sets on every request, without the per-call checks.
   */
  setKnownHeader(lower: string, name: string, value: string): void {
    this.#edit(lower, [name, value]);
  }

  /** kong.service.request.clear_header. */
  clearHeader(name: string): void {
    this.#edit(lowerName(name), null);
  }

  /** kong.service.request.clear_query_arg. */
  clearQueryArg(name: string): void {
    if (this.queryArg(name) !== undefined) (this.clearedArgs ??= new Set()).add(name);
  }

  /** Bounds the request body (the smaller limit wins when several plugins set one). */
  limitRequestBody(bytes: number, status: number): void {
    if (this.requestBodyLimit === undefined || bytes < this.requestBodyLimit.bytes) this.requestBodyLimit = { bytes, status };
  }

  /** kong.client.authenticate. */
  authenticate(consumer: Consumer | undefined, credential: AuthenticatedCredential | undefined): void {
    this.consumer = consumer;
    this.credential = credential;
  }

  /** The query string for the upstream, without `?`: as sent, or re-encoded (as Kong does) after a removal. */
  upstreamQuery(): string {
    if (this.queryOverride !== undefined) return this.queryOverride;
    const cleared = this.clearedArgs;
    if (cleared === undefined) return this.#query;
    return this.#parsedArgs()
      .filter(([k]) => !cleared.has(k))
      .map(([k, v]) => (v === true ? encodeArg(k) : `${encodeArg(k)}=${encodeArg(v)}`))
      .join('&');
  }
}
