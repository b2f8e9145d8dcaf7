import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import { escapeUri } from '../declarative/normalize-path.ts';
import type { RuntimeState } from '../runtime.ts';
import type { RouteMatch, RouterRequest } from '../router/index.ts';
import { RequestIdSource, VIA } from './kong-headers.ts';
import { ProxyExchange, type ProxyContext } from './proxy-exchange.ts';
import { scanRequestHeaders, type ScannedRequestHeaders } from './scan-request-headers.ts';
import { sendKongResponse, sendProxyError, sendStoredResponse, TextBody } from './send-proxy-error.ts';
import { collectGlobal, PluginContext, RequestLogEntry, runAccessPhase, runLogPhase, SIZE_LIMIT_MESSAGE, wantsLog, type BodySource, type PluginExit } from '../plugins/index.ts';
import { upstreamHeaderLines } from './upstream-header-lines.ts';
import type { ProxyRoute } from './proxy-route.ts';
import { realClientAddress } from './real-ip.ts';
import { expectsContinue } from './expects-continue.ts';
import { BodyBudget } from './body-budget.ts';

/** The most request body a plugin may have read whole (key_in_body, a body digest, a body edit). */
const MAX_BUFFERED_BODY = 8 * 1024 * 1024;
// Ours, not Kong's (nginx spills large bodies to a file instead): a refusal the client may retry.
const BODIES_BUSY_MESSAGE = 'The gateway is holding too many request bodies; retry later';
/**
 * What one process holds of such bodies at once: eight whole ones, and one whole one per client
 * connection (docs/gateway-plugins.md). An HTTP/1.1 connection has one request at a time; an
 * HTTP/2 connection would otherwise take the whole budget with eight streams that never end.
 */
export const BODY_BUDGET = new BodyBudget(64 * 1024 * 1024, MAX_BUFFERED_BODY);

/** The client connection a request came on: an HTTP/2 stream's session, else its socket. */
function connectionOf(req: IncomingMessage): object {
  return (req as unknown as Partial<Http2ServerRequest>).stream?.session ?? req.socket;
}

/** The listener a handler serves: its scheme and port go into routing and X-Forwarded-*. */
export type ProxyListener = { readonly scheme: 'http' | 'https'; readonly port: number };

/** A node:http request handler. */
export type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Splits the request target into path and query (`?…`), accepting absolute-form too. */
function splitTarget(url: string): [string, string] {
  let target = url;
  if (!target.startsWith('/')) {
    // RFC 9112 §3.2.2 absolute-form; "*" (OPTIONS) has no path.
    if (target === '*') return ['*', ''];
    try {
      const u = new URL(target);
      target = u.pathname + u.search;
    } catch {
      return ['/', ''];
    }
  }
  const q = target.indexOf('?');
  return q === -1 ? [target, ''] : [target.slice(0, q), target.slice(q)];
}

/**
 * A request the gateway answered itself (no route, a plugin's answer): metrics and the access
 * log still see it, and so does the plugins' log phase.
 */
function reportKongAnswer(
  ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, requestId: string, startedAt: number,
  route: RouteMatch<ProxyRoute> | undefined, plugins: PluginContext | undefined, scheme: 'http' | 'https', clientIp: string,
): void {
  const done = {
    requestId, method: req.method ?? 'GET', uri: req.url ?? '/', clientIp, status: res.statusCode,
    source: 'kong', service: route?.value.service, route: route?.route, upstreamAddress: undefined, proxyLatencyMs: undefined,
    upstreamLatencyMs: undefined, totalMs: performance.now() - startedAt,
  } as const;
  ctx.hooks.onRequestDone?.(done);
  if (plugins === undefined || !wantsLog(plugins)) return;
  runLogPhase(plugins, new RequestLogEntry(done, req, 0, scheme, plugins.responseHeaders ?? [], plugins.responseSize, undefined, undefined, startedAt));
}

const newPluginContext = (req: IncomingMessage, method: string, query: string, requestId: string, clientIp: string, startedAt: number, names?: readonly string[]): PluginContext => {
  const p = new PluginContext(method, req.rawHeaders, query === '' ? '' : query.slice(1), req.url ?? '/', req.httpVersion === '1.0' ? '1.0' : '1.1', names);
  p.requestId = requestId;
  p.clientIp = clientIp;
  p.startedAt = startedAt;
  p.socket = req.socket;
  return p;
};

/**
 * The proxy's request handler for one listener: route, then hand the request to a
 * ProxyExchange. Reads the runtime state once per request, so a reload never splits a request.
 */
export function createProxyHandler(getState: () => RuntimeState, ctx: ProxyContext, listener: ProxyListener): RequestHandler {
  const ids = new RequestIdSource();
  // Reused for every request: routing is synchronous.
  const routerRequest = {
    method: '', host: undefined as string | undefined, path: '/', headers: {} as RouterRequest['headers'],
    scheme: listener.scheme, port: listener.port, sni: undefined as string | undefined,
  };
  const realIp = ctx.realIp;
  const xForwardedProto = 'X-Forwarded-Proto: ' + listener.scheme + '\r\nX-Forwarded-Port: ' + listener.port + '\r\n';
  return (req, res) => {
    const startedAt = performance.now();
    const state = getState();
    // nginx's $remote_addr: the socket's address unless a trusted proxy names the client.
    const socketIp = req.socket.remoteAddress ?? '';
    const clientIp = realIp === undefined ? socketIp : realClientAddress(socketIp, req.rawHeaders, realIp);
    const requestId = ids.next();
    const [path, query] = splitTarget(req.url ?? '/');
    const scanned = scanRequestHeaders(req.rawHeaders);
    const router = state.router;
    routerRequest.method = req.method ?? 'GET';
    routerRequest.host = scanned.host;
    // The router matches Kong's normalised form of this path and composes the upstream path
    // from it; X-Forwarded-Path and hash_on keep the path as sent.
    routerRequest.path = path;
    routerRequest.headers = router.usesHeaders ? req.headers : {};
    routerRequest.sni = listener.scheme === 'https' ? ((req.socket as TLSSocket).servername || undefined) : undefined;
    const match = router.find(routerRequest);
    if (match === undefined) {
      // Kong runs the global plugins' response phases on its 404 (plugins_iterator.lua get_collected_iterator).
      let globals: PluginContext | undefined;
      if (state.globalPlugins !== undefined) collectGlobal(state.globalPlugins, (globals = newPluginContext(req, routerRequest.method, query, requestId, clientIp, startedAt)));
      sendProxyError(res, 'NO_ROUTE', req.headers.accept, requestId, undefined, globals);
      reportKongAnswer(ctx, req, res, requestId, startedAt, undefined, globals, listener.scheme, clientIp);
      return;
    }
    if (match.httpsRedirectStatus !== undefined) {
      const code = match.httpsRedirectStatus;
      if (code === 426) {
        sendProxyError(res, 'HTTPS_REQUIRED', req.headers.accept, requestId, { Connection: 'Upgrade', Upgrade: 'TLS/1.2, HTTP/1.1' });
      } else {
        res.writeHead(code, { Location: `https://${scanned.host ?? 'localhost'}${req.url ?? '/'}`, 'Content-Length': 0 });
        res.end();
      }
      return;
    }
    const plugins = match.value.plugins;
    if (plugins === undefined) {
      forward(ctx, req, res, match, scanned, scanned.passthrough, query, path, query, requestId, startedAt, routerRequest.method, xForwardedProto, listener.scheme, clientIp, undefined, undefined);
      return;
    }
    // The rewrite and access phases of the route's plugins: they may answer instead of the
    // upstream, or edit the request the upstream gets (consumer headers, hidden credentials).
    const pluginCtx = newPluginContext(req, routerRequest.method, query, requestId, clientIp, startedAt, scanned.names);
    pluginCtx.serviceId = match.value.service.id;
    pluginCtx.routeId = match.route.id;
    pluginCtx.route = match.route;
    pluginCtx.service = match.value.service;
    pluginCtx.scheme = listener.scheme;
    pluginCtx.port = listener.port;
    if (match.captures !== undefined) pluginCtx.uriCaptures = { ...match.captures, 0: match.matched };
    // Read only if a plugin asks (kong.request.get_raw_body); otherwise the body streams.
    pluginCtx.bodySource = new ClientBody(req, res);
    const outcome = runAccessPhase(plugins, pluginCtx);
    const r: Routed = { match, scanned, path, query, requestId, startedAt, method: routerRequest.method, xForwardedProto, scheme: listener.scheme, clientIp };
    if (outcome instanceof Promise) {
      // A hook waits on another process (shared counters): the request body stays unread meanwhile.
      outcome.then((exit) => afterAccess(ctx, req, res, r, pluginCtx, exit)).catch(unexpected(req, res, requestId));
      return;
    }
    afterAccess(ctx, req, res, r, pluginCtx, outcome);
  };
}

/** What the handler resolved for a routed request, kept while an access hook waits. */
type Routed = {
  readonly match: RouteMatch<ProxyRoute>;
  readonly scanned: ScannedRequestHeaders;
  readonly path: string;
  readonly query: string;
  readonly requestId: string;
  readonly startedAt: number;
  readonly method: string;
  readonly xForwardedProto: string;
  readonly scheme: 'http' | 'https';
  readonly clientIp: string;
};

// After the access phase: the plugins' answer, or the request forwarded with their edits.
function afterAccess(ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, r: Routed, pluginCtx: PluginContext, exit: PluginExit | undefined): void {
  const { match, scanned, path, query, requestId, startedAt, xForwardedProto, clientIp } = r;
  // The client left while a hook waited (its socket, not req: a request read whole is destroyed too).
  if (exit === undefined && req.socket.destroyed) return;
  // A body refused for the process's budget: whatever a plugin concluded without it (key-auth's
  // "no key"), the answer is that the gateway is busy.
  if (pluginCtx.bodySource instanceof ClientBody && pluginCtx.bodySource.busy) {
    sendKongResponse(res, 503, BODIES_BUSY_MESSAGE, req.headers.accept, requestId, { 'Retry-After': '1' }, pluginCtx);
    reportKongAnswer(ctx, req, res, requestId, startedAt, match, pluginCtx, r.scheme, clientIp);
    return;
  }
  if (exit?.replay !== undefined) {
    sendStoredResponse(res, exit.status, exit.replay.headers, exit.replay.body, requestId, performance.now() - startedAt, pluginCtx);
    reportKongAnswer(ctx, req, res, requestId, startedAt, match, pluginCtx, r.scheme, clientIp);
    return;
  }
  if (exit !== undefined) {
    sendKongResponse(res, exit.status, exit.text !== undefined ? new TextBody(exit.text) : exit.body === undefined ? exit.message : exit.body, req.headers.accept, requestId, exit.headers, pluginCtx);
    reportKongAnswer(ctx, req, res, requestId, startedAt, match, pluginCtx, r.scheme, clientIp);
    return;
  }
  const method = pluginCtx.upstreamMethod ?? r.method;
  const transform = pluginCtx.requestBodyTransform;
  if (transform === undefined && !pluginCtx.bodyRead) {
    forwardEdited(ctx, req, res, match, scanned, pluginCtx, path, query, requestId, startedAt, method, xForwardedProto, r.scheme, clientIp, undefined);
    return;
  }
  // A plugin read the body or edits it: it is held whole (bounded) and forwarded as edited
  // (kong.service.request.set_body, then the transform, in PRIORITY order). request-size-limiting's
  // bound applies to it too, and its refusal when that bound is the smaller.
  const limit = pluginCtx.requestBodyLimit;
  const limited = limit !== undefined && limit.bytes < MAX_BUFFERED_BODY;
  const withBody = (body: Buffer | undefined): void => {
    if (req.socket.destroyed) return;
    if (body === undefined || (limited && body.length > limit.bytes)) {
      sendKongResponse(res, limited ? limit.status : 413, SIZE_LIMIT_MESSAGE, req.headers.accept, requestId, undefined, pluginCtx);
      reportKongAnswer(ctx, req, res, requestId, startedAt, match, pluginCtx, r.scheme, clientIp);
      return;
    }
    let edited = pluginCtx.upstreamBody ?? body;
    try {
      if (transform !== undefined) edited = transform(edited) ?? edited;
    } catch {
      sendProxyError(res, 'UNEXPECTED', req.headers.accept, requestId, undefined, pluginCtx);
      reportKongAnswer(ctx, req, res, requestId, startedAt, match, pluginCtx, r.scheme, clientIp);
      return;
    }
    forwardEdited(ctx, req, res, match, scanned, pluginCtx, path, query, requestId, startedAt, method, xForwardedProto, r.scheme, clientIp, edited);
  };
  const body = pluginCtx.rawBody();
  if (body instanceof Promise) body.then(withBody).catch(unexpected(req, res, requestId));
  else withBody(body);
}

/**
 * For a continuation that threw (a head node:http2 refuses): a rejection nobody handles would end
 * the process. Kong's 500 while no head is out, else the client's connection or stream is cut.
 */
function unexpected(req: IncomingMessage, res: ServerResponse, requestId: string): () => void {
  return () => {
    if (!res.headersSent && !res.closed) {
      try {
        sendProxyError(res, 'UNEXPECTED', req.headers.accept, requestId);
        return;
      } catch {
        // Not even that could be written: cut below.
      }
    }
    res.destroy();
  };
}

/** The client's body for a plugin that asks for it (an object, not a closure made per request). */
class ClientBody implements BodySource {
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  /** True when the body was refused because the process holds too many bodies already. */
  busy = false;

  constructor(req: IncomingMessage, res: ServerResponse) {
    this.#req = req;
    this.#res = res;
  }

  read(): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      if (expectsContinue(this.#req)) this.#res.writeContinue();
      const owner = connectionOf(this.#req);
      readBody(this.#req, MAX_BUFFERED_BODY, owner, (body, charged, busy) => {
        // The bytes stay charged while the exchange may still hold the body (forwarded, edited);
        // an exchange already over gives them back at once.
        if (charged > 0) {
          if (this.#res.closed) BODY_BUDGET.give(charged, owner);
          else this.#res.once('close', () => BODY_BUDGET.give(charged, owner));
        }
        this.busy = busy;
        resolve(body);
      });
    });
  }
}

/**
 * Reads a request body whole, charging BODY_BUDGET (and `owner`'s share) as it arrives; undefined
 * when it grows past `max` bytes or the budget is spent (`busy`): the rest is drained, nothing
 * more is held.
 */
function readBody(req: IncomingMessage, max: number, owner: object, done: (body: Buffer | undefined, charged: number, busy: boolean) => void): void {
  let parts: Buffer[] = [];
  let size = 0;
  let charged = 0;
  let busy = false;
  let settled = false;
  const drop = (): void => {
    parts = [];
    BODY_BUDGET.give(charged, owner);
    charged = 0;
  };
  req.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (busy || size > max) {
      if (charged > 0) drop();
      return;
    }
    if (!BODY_BUDGET.take(chunk.length, owner)) {
      busy = true;
      drop();
      return;
    }
    charged += chunk.length;
    parts.push(chunk);
  });
  req.once('end', () => {
    settled = true;
    done(busy || size > max ? undefined : Buffer.concat(parts), charged, busy);
  });
  // A client that leaves mid-body: nothing more comes (the caller sees its socket destroyed).
  req.once('close', () => {
    if (settled) return;
    settled = true;
    drop();
    done(undefined, 0, busy);
  });
}

/** Forwards a request the route's plugins let through, with their edits. */
function forwardEdited(
  ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, match: RouteMatch<ProxyRoute>, scanned: ScannedRequestHeaders, p: PluginContext,
  path: string, query: string, requestId: string, startedAt: number, method: string, xForwardedProto: string, scheme: 'http' | 'https', clientIp: string,
  body: Buffer | undefined,
): void {
  const edited = p.upstreamQuery();
  forward(
    ctx, req, res, match, scanned, upstreamHeaderLines(req.rawHeaders, scanned, p.headerEdits), edited === '' ? '' : '?' + edited, path, query, requestId, startedAt, method,
    // The response phases need the context only when some plugin has one.
    xForwardedProto, scheme, clientIp, p.collected !== undefined ? p : undefined, p, body,
  );
}

/** Builds the upstream request head (Kong's proxy_set_header list) and starts the exchange. */
function forward(
  ctx: ProxyContext, req: IncomingMessage, res: ServerResponse, match: RouteMatch<ProxyRoute>, scanned: ScannedRequestHeaders, passthrough: string,
  upstreamQuery: string, path: string, query: string, requestId: string, startedAt: number, method: string, xForwardedProto: string, scheme: 'http' | 'https',
  clientIp: string, downstream: PluginContext | undefined, plugins: PluginContext | undefined, body?: Buffer,
): void {
  let hostName = scanned.host ?? '';
  const colon = hostName.lastIndexOf(':');
  if (colon !== -1 && !hostName.endsWith(']')) hostName = hostName.slice(0, colon);
  // Kong's nginx template proxy_set_header list and handler.lua X-Forwarded-* rules (no trusted_ips).
  let tail =
    passthrough +
    'X-Forwarded-For: ' + (scanned.forwardedFor === undefined ? clientIp : scanned.forwardedFor + ', ' + clientIp) + '\r\n' +
    xForwardedProto +
    'X-Forwarded-Host: ' + hostName.toLowerCase() + '\r\n' +
    'X-Forwarded-Path: ' + path + '\r\n';
  // The match comes from the decoded path: escaped, so a decoded CR LF cannot end the line.
  if (match.route.strip_path && match.matched.length > 1) tail += 'X-Forwarded-Prefix: ' + escapeUri(match.matched) + '\r\n';
  tail +=
    'X-Real-IP: ' + clientIp + '\r\n' +
    'X-Kong-Request-Id: ' + requestId + '\r\n' +
    'Via: ' + (scanned.via === undefined ? VIA : scanned.via + ', ' + VIA) + '\r\n';
  if (body !== undefined) tail += 'Content-Length: ' + body.length + '\r\n';
  else if (scanned.chunked) tail += 'Transfer-Encoding: chunked\r\n';
  else if (scanned.contentLength >= 0) tail += 'Content-Length: ' + scanned.contentLength + '\r\n';
  tail += '\r\n';
  // A plugin's new path (kong.service.request.set_path) is sent escaped: a CR LF cannot end the line.
  const upstreamPath = plugins?.upstreamPath === undefined ? match.upstreamPath : escapeUri(plugins.upstreamPath).replace(/\?/g, '%3F').replace(/#/g, '%23');
  new ProxyExchange(ctx, req, res, {
    target: match.value,
    headers: scanned,
    requestLine: method + ' ' + upstreamPath + upstreamQuery + ' HTTP/1.1\r\n',
    tail,
    requestId,
    startedAt,
    path,
    query: query === '' ? '' : query.slice(1),
    captures: match.captures,
    consumerId: plugins?.consumer?.id,
    clientIp,
    plugins: downstream,
    scheme,
    body,
    hostOverride: plugins?.upstreamHost,
    bodyLimit: plugins?.requestBodyLimit,
  }).start();
}
