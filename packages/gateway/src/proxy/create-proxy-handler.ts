import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { TLSSocket } from 'node:tls';
import { escapeUri } from '../declarative/normalize-path.ts';
import type { RuntimeState } from '../runtime.ts';
import type { RouteMatch, RouterRequest } from '../router/index.ts';
import { RequestIdSource, VIA } from './kong-headers.ts';
import { ProxyExchange, type ProxyContext } from './proxy-exchange.ts';
import { scanRequestHeaders } from './scan-request-headers.ts';
import { sendKongResponse, sendProxyError } from './send-proxy-error.ts';
import { collectGlobal, PluginContext, requestHeadLength, runAccessPhase, runLogPhase, wantsLog } from '../plugins/index.ts';
import type { ProxyRoute } from './proxy-route.ts';
import { realClientAddress } from './real-ip.ts';

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
 * The proxy's request handler for one listener: route, then hand the request to a
 * ProxyExchange. Reads the runtime state once per request, so a reload never splits a request.
 */
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
  runLogPhase(plugins, {
    done, scheme, requestHeaders: req.headers, requestSize: requestHeadLength(done.method, done.uri, req.rawHeaders),
    responseHeaders: plugins.responseHeaders ?? [], responseSize: plugins.responseSize, upstreamUri: undefined, upstreamStatus: undefined, startedAt,
  });
}

const newPluginContext = (req: IncomingMessage, method: string, query: string, requestId: string, clientIp: string): PluginContext => {
  const p = new PluginContext(method, req.rawHeaders, query === '' ? '' : query.slice(1), req.url ?? '/', req.httpVersion === '1.0' ? '1.0' : '1.1');
  p.requestId = requestId;
  p.clientIp = clientIp;
  return p;
};

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
      if (state.globalPlugins !== undefined) collectGlobal(state.globalPlugins, (globals = newPluginContext(req, routerRequest.method, query, requestId, clientIp)));
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
    let passthrough = scanned.passthrough;
    let upstreamQuery = query;
    const plugins = match.value.plugins;
    let consumerId: string | undefined;
    let downstream: PluginContext | undefined;
    if (plugins !== undefined) {
      // The rewrite and access phases of the route's plugins: they may answer instead of the
      // upstream, or edit the request the upstream gets (consumer headers, hidden credentials).
      const pluginCtx = newPluginContext(req, routerRequest.method, query, requestId, clientIp);
      const exit = runAccessPhase(plugins, pluginCtx);
      if (exit !== undefined) {
        sendKongResponse(res, exit.status, exit.body ?? exit.message, req.headers.accept, requestId, exit.headers, pluginCtx);
        reportKongAnswer(ctx, req, res, requestId, startedAt, match, pluginCtx, listener.scheme, clientIp);
        return;
      }
      // The response phases need the context only when some plugin has one.
      if (pluginCtx.collected !== undefined) downstream = pluginCtx;
      passthrough = pluginCtx.upstreamHeaderLines(passthrough);
      consumerId = pluginCtx.consumer?.id;
      const edited = pluginCtx.upstreamQuery();
      upstreamQuery = edited === '' ? '' : '?' + edited;
    }
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
    if (scanned.chunked) tail += 'Transfer-Encoding: chunked\r\n';
    else if (scanned.contentLength >= 0) tail += 'Content-Length: ' + scanned.contentLength + '\r\n';
    tail += '\r\n';
    new ProxyExchange(ctx, req, res, {
      target: match.value,
      headers: scanned,
      requestLine: routerRequest.method + ' ' + match.upstreamPath + upstreamQuery + ' HTTP/1.1\r\n',
      tail,
      requestId,
      startedAt,
      path,
      query: query === '' ? '' : query.slice(1),
      captures: match.captures,
      consumerId,
      clientIp,
      plugins: downstream,
      scheme: listener.scheme,
    }).start();
  };
}
