// The gateway's one error catalog. Messages are Kong's own words so that Kong users (and their
// scripts) see what they expect: proxy errors from kong/runloop/handler.lua and
// kong/error_handlers.lua, admin errors from kong/api/endpoints.lua, DAO errors from
// kong/db/errors.lua (which carry Kong's numeric code and name on the wire).
import { AppError, assertCatalog } from '@signet/kit';

type GatewayErrorRow = {
  readonly status: number;
  readonly message: string;
  /** Kong's DAO error code and name (kong/db/errors.lua); present → schema-style body. */
  readonly kong?: { readonly code: number; readonly name: string };
};

const GATEWAY_ERRORS = {
  // Proxy path (kong/runloop/handler.lua, kong/runloop/balancer/init.lua).
  NO_ROUTE: { status: 404, message: 'no Route matched with those values' },
  HTTPS_REQUIRED: { status: 426, message: 'Please use HTTPS protocol' },
  NO_PEER: { status: 503, message: 'failure to get a peer from the ring-balancer' },
  NAME_RESOLUTION: { status: 503, message: 'name resolution failed' },
  UPSTREAM_TIMEOUT: { status: 504, message: 'The upstream server is timing out' },
  BAD_GATEWAY: { status: 502, message: 'An invalid response was received from the upstream server' },
  UNEXPECTED: { status: 500, message: 'An unexpected error occurred' },
  // nginx's client_body_timeout, in Kong's words (kong/tools/http.lua's default 408 body).
  REQUEST_TIMEOUT: { status: 408, message: 'Request timeout' },
  // Admin API (kong/tools/http.lua get_default_exit_body defaults).
  NOT_FOUND: { status: 404, message: 'Not found' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed' },
  // PUT …/healthy|unhealthy with checks off (kong/runloop/balancer/init.lua post_health); the
  // detail message names the upstream: "no healthchecker found for <name>".
  NO_HEALTHCHECKER: { status: 400, message: 'no healthchecker found' },
  // Admin API exposure: requests a web page could make (foreign Origin, DNS-rebound Host, a
  // CORS-simple body) and Kong Enterprise RBAC's token check (kong-admin-token).
  ADMIN_FORBIDDEN: { status: 403, message: 'Forbidden' },
  ADMIN_UNAUTHORIZED: { status: 401, message: 'Invalid credentials. Token or User credentials required' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported Media Type' },
  // Request bodies (lapis / nginx client_max_body_size).
  BAD_JSON: { status: 400, message: 'Cannot parse JSON body' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request size limit exceeded' },
  // kong/api/api_helpers.lua before_filter.
  MULTIPLE_CONTENT_TYPES: { status: 400, message: 'Multiple Content-Type headers not allowed' },
  // POST /config (kong/api/routes/config.lua).
  CONFIG_EXPECTED: { status: 400, message: 'expected a declarative configuration' },
  CONFIG_LOADING: { status: 429, message: 'Currently loading previous configuration' },
  // DAO errors (kong/db/errors.lua ERRORS and kong/api/endpoints.lua ERRORS_HTTP_CODES).
  SCHEMA_VIOLATION: { status: 400, message: 'schema violation', kong: { code: 2, name: 'schema violation' } },
  INVALID_OFFSET: { status: 400, message: 'invalid offset', kong: { code: 7, name: 'invalid offset' } },
  INVALID_SIZE: { status: 400, message: 'invalid size', kong: { code: 9, name: 'invalid size' } },
  OPERATION_UNSUPPORTED: {
    status: 405,
    message: 'operation unsupported',
    kong: { code: 12, name: 'operation unsupported' },
  },
  DECLARATIVE_CONFIG: {
    status: 400,
    message: 'declarative config is invalid',
    kong: { code: 14, name: 'invalid declarative configuration' },
  },
} as const satisfies Record<string, GatewayErrorRow>;

assertCatalog(GATEWAY_ERRORS);

/** A code of the gateway catalog. */
export type GatewayErrorCode = keyof typeof GATEWAY_ERRORS;

/** Extra detail for DAO-style errors: Kong's raw error tree, its flattened form, human lines. */
export type GatewayErrorDetail = {
  /** Replaces the catalog message (4xx only; 5xx always answer with the catalog text). */
  readonly message?: string;
  /** Kong's raw error tree (`fields`). */
  readonly fields?: unknown;
  /** The `?flatten_errors=1` form (kong/db/errors.lua declarative_config_flattened). */
  readonly flattened?: { readonly message: string; readonly fields: unknown; readonly errors: readonly unknown[] };
  /** For humans and logs: one `file:line:column: message` per problem. */
  readonly lines?: readonly string[];
  /** Response headers that go with the error (e.g. Retry-After on 429). */
  readonly headers?: Readonly<Record<string, string>>;
};

/** The gateway's error: one catalog row, serialised as Kong does. */
export class GatewayError extends AppError<GatewayErrorCode> {
  readonly status: number;
  readonly detail: GatewayErrorDetail;

  constructor(code: GatewayErrorCode, detail: GatewayErrorDetail = {}, options?: ErrorOptions) {
    const row: GatewayErrorRow = GATEWAY_ERRORS[code];
    super(code, detail.message ?? row.message, options);
    this.status = row.status;
    this.detail = detail;
  }

  /** Human-readable problems (`kong.yml:3:7: …`), or the message alone. */
  get lines(): readonly string[] {
    return this.detail.lines ?? [this.message];
  }

  /**
   * Kong's wire body: `{message}`, or `{code, name, message[, fields]}` for DAO errors, and with
   * `flattenErrors` the drained `fields` plus `flattened_errors` (kong/db/errors.lua).
   */
  toBody(options: { flattenErrors?: boolean } = {}): Record<string, unknown> {
    const row: GatewayErrorRow = GATEWAY_ERRORS[this.code];
    const message = this.expose ? this.message : row.message;
    if (row.kong === undefined) return { message };
    const flat = options.flattenErrors === true ? this.detail.flattened : undefined;
    if (flat !== undefined) {
      return { code: row.kong.code, name: row.kong.name, message: flat.message, fields: flat.fields, flattened_errors: flat.errors };
    }
    const body: Record<string, unknown> = { code: row.kong.code, name: row.kong.name, message };
    if (this.detail.fields !== undefined) body.fields = this.detail.fields;
    return body;
  }
}

/** The catalog itself, read-only (for docs and catalog tests). */
export const GATEWAY_ERROR_CATALOG: Readonly<Record<GatewayErrorCode, GatewayErrorRow>> = GATEWAY_ERRORS;

// Content negotiation and templates of Kong's generated error pages (kong/tools/http.lua:
// get_response_type, get_mime_type, ERROR_TEMPLATES). The proxy answers its own errors in the
// format the client's Accept prefers; JSON is the default.

/** A rendered error: the Content-Type header value and the body text. */
export type RenderedError = { readonly contentType: string; readonly body: string };

type Format = 'json' | 'html' | 'xml' | 'plain';

const CONTENT_TYPES: Record<Format, string> = {
  json: 'application/json; charset=utf-8',
  html: 'text/html; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  plain: 'text/plain; charset=utf-8',
};

// Kong's MIME_TYPES table: full types, plus bare "application" and "text" for `type/*`.
const MEDIA_TYPES: Readonly<Record<string, Format>> = {
  'application/json': 'json',
  'text/html': 'html',
  'application/xml': 'xml',
  'text/plain': 'plain',
  application: 'json',
  text: 'plain',
};

// Kong's accept pattern: `type/subtype` then optional `;q=` (at most 3 decimals) and parameters.
const TOKEN = "(?:[a-z0-9][a-z0-9\\-!#$&^_+.]+|\\*)";
const ACCEPT_VALUE = new RegExp(
  `^(${TOKEN}\\s*/\\s*${TOKEN})(?:\\s*;\\s*q\\s*=\\s*(1(?:\\.0{0,3})?|0(?:\\.\\d{0,3})?)|\\s*;\\s*[a-z0-9][a-z0-9\\-!#$&^_+.]+(?:=[^;]*)?)*`,
  'i',
);

function formatOf(mediaType: string): Format {
  const [type = '', subtype = ''] = mediaType.toLowerCase().replace(/\s+/g, '').split('/');
  if (subtype === '*') return type === '*' ? 'json' : (MEDIA_TYPES[type] ?? 'json');
  return MEDIA_TYPES[`${type}/${subtype}`] ?? 'json';
}

/** The format Kong answers in: the first entry with the highest q wins; unknown types → JSON. */
export function negotiateErrorFormat(accept: string | undefined): Format {
  let format: Format = 'json';
  if (accept === undefined) return format;
  let best = 0;
  for (const part of accept.split(',')) {
    const m = ACCEPT_VALUE.exec(part.trim());
    if (m === null || m[1] === undefined) continue;
    const q = m[2] === undefined ? 1 : Number(m[2]);
    if (q > best) {
      best = q;
      format = formatOf(m[1]);
    }
  }
  return format;
}

const escapeMarkup = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

// JSON.stringify(...).slice(1, -1) escapes exactly what a JSON string needs and nothing more.
const escapeJson = (s: string): string => JSON.stringify(s).slice(1, -1);

/**
 * Renders a proxy error as Kong's default templates do, byte for byte for plain messages
 * (Kong interpolates unescaped; we escape, which changes nothing for Kong's own messages).
 */
export function renderKongError(message: string, accept: string | undefined, requestId: string): RenderedError {
  const format = negotiateErrorFormat(accept);
  const contentType = CONTENT_TYPES[format];
  switch (format) {
    case 'json':
      return {
        contentType,
        body: `{\n  "message":"${escapeJson(message)}",\n  "request_id":"${escapeJson(requestId)}"\n}`,
      };
    case 'html':
      return {
        contentType,
        body:
          '<!doctype html>\n<html>\n  <head>\n    <meta charset="utf-8">\n    <title>Error</title>\n  </head>\n' +
          `  <body>\n    <h1>Error</h1>\n    <p>${escapeMarkup(message)}.</p>\n` +
          `    <p>request_id: ${escapeMarkup(requestId)}</p>\n  </body>\n</html>\n`,
      };
    case 'xml':
      return {
        contentType,
        body:
          '<?xml version="1.0" encoding="UTF-8"?>\n<error>\n' +
          `  <message>${escapeMarkup(message)}</message>\n  <requestid>${escapeMarkup(requestId)}</requestid>\n</error>\n`,
      };
    case 'plain':
      return { contentType, body: `${message}\nrequest_id: ${requestId}\n` };
  }
}
