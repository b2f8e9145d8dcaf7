import { constants, type ClientHttp2Session, type IncomingHttpHeaders, type OutgoingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import { performance } from 'node:perf_hooks';
import type { HashRequest } from '../balancer/index.ts';
import { GATEWAY_ERROR_CATALOG, type GatewayErrorCode } from '../errors.ts';
import { PeerAttempts } from '../proxy/peer-attempts.ts';
import type { ProxyHooks } from '../proxy/proxy-hooks.ts';
import type { UpstreamEndpoint } from '../proxy/upstream-pool.ts';
import { addressHostHeader, type ProxyRoute } from '../proxy/proxy-route.ts';
import type { RuntimeState } from '../runtime.ts';
import { grpcStatusOfHttpStatus, httpStatusOfGrpcStatus } from './grpc-status.ts';
import { Http2SessionPool, SessionError } from './http2-session-pool.ts';
import { realClientAddress, type RealIpSettings } from '../proxy/real-ip.ts';
import { PluginContext, runAccessPhase, type AccessOutcome, type PluginExit } from '../plugins/index.ts';

// HTTP/2 headers as node's rawHeaders list (no pseudo-headers): what plugins read.
function rawHeadersOf(headers: IncomingHttpHeaders): string[] {
  const raw: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (name.startsWith(':') || value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) raw.push(name, v);
  }
  return raw;
}

/** Where a call came in. */
export type GrpcCallInfo = {
  readonly scheme: 'http' | 'https';
  /** The listener's port (hosts with a port match on it). */
  readonly port: number;
  readonly sni: string | undefined;
  readonly remoteAddress: string;
};

export type GrpcProxyDeps = {
  readonly getState: () => RuntimeState;
  /** Passive health checks (the same hooks as the HTTP proxy). */
  readonly hooks?: ProxyHooks;
  /** Extra trusted CAs (PEM) for grpcs services with tls_verify. */
  readonly trustedCa?: readonly string[];
  /** Kong's real_ip settings; absent = the socket's address is the client. */
  readonly realIp?: RealIpSettings | undefined;
};

// RFC 9113 §8.2.2: connection-specific fields never travel in HTTP/2; the rest are rebuilt.
const NOT_FORWARDED = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'http2-settings']);

function forwardable(headers: IncomingHttpHeaders, into: OutgoingHttpHeaders): OutgoingHttpHeaders {
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':') || NOT_FORWARDED.has(name)) continue;
    into[name] = value;
  }
  return into;
}

/**
 * Kong's grpc/grpcs services: a call on an HTTP/2 stream is routed on its path
 * (`/package.Service/Method`), host and headers, balanced over the upstream's targets like a
 * request (the same PeerAttempts: hash_on input, connect errors and timeouts retried on another
 * target), relayed as HTTP/2 with its trailers, and reported to passive checks with the HTTP
 * status its `grpc-status` stands for. Gateway errors are answered as gRPC trailers-only
 * responses (docs/gateway-config.md, gRPC services).
 */
export class GrpcProxy {
  readonly #deps: GrpcProxyDeps;
  readonly #pool: Http2SessionPool;

  constructor(deps: GrpcProxyDeps) {
    this.#deps = deps;
    this.#pool = new Http2SessionPool({ trustedCa: deps.trustedCa });
  }

  /** Closes the sessions to targets. */
  close(): void {
    this.#pool.close();
  }

  /** Whether a TLS client with this server name is offered HTTP/2 (a grpcs route names it). */
  offersHttp2(servername: string | undefined): boolean {
    return servername !== undefined && servername !== '' && this.#deps.getState().grpc.grpcsServerName(servername);
  }

  /** Whether plain connections may be h2c calls (a grpc route exists in the configuration). */
  takesH2c(): boolean {
    return this.#deps.getState().grpc.h2c;
  }

  /** Serves one call (an http2 server's 'stream' event). */
  handleStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, info: GrpcCallInfo): void {
    stream.on('error', () => undefined);
    const state = this.#deps.getState().grpc;
    const rawPath = headers[':path'] ?? '/';
    const q = rawPath.indexOf('?');
    const match = state.router.find({
      method: headers[':method'] ?? 'POST',
      host: headers[':authority'] ?? headers.host,
      path: q === -1 ? rawPath : rawPath.slice(0, q),
      headers,
      scheme: info.scheme,
      port: info.port,
      sni: info.sni,
    });
    if (match === undefined) return answerError(stream, 'NO_ROUTE');
    if (match.httpsRedirectStatus !== undefined) return answerError(stream, 'HTTPS_REQUIRED');
    const clientQuery = q === -1 ? '' : rawPath.slice(q + 1);
    // The route's plugins run as for an HTTP request; an exit becomes a trailers-only answer.
    const raw = match.value.plugins === undefined ? undefined : rawHeadersOf(headers);
    const plugins = raw === undefined ? undefined : new PluginContext(headers[':method'] ?? 'POST', raw, clientQuery, rawPath, '2.0');
    // Once the access phase is over: its answer, or the call forwarded with its edits.
    const proceed = (exit: PluginExit | undefined): void => {
      if (exit !== undefined) return answerStatus(stream, exit.status, exit.message);
      if (stream.destroyed) return;
      let query = q === -1 ? '' : rawPath.slice(q);
      if (plugins !== undefined) {
        const edited = plugins.upstreamQuery();
        query = edited === '' ? '' : '?' + edited;
      }
      // What a consistent-hashing upstream hashes: the call as the client sent it.
      const hashRequest = (): HashRequest => ({
        clientIp: info.remoteAddress,
        headers,
        path: q === -1 ? rawPath : rawPath.slice(0, q),
        query: clientQuery,
        captures: match.captures,
        consumerId: plugins?.consumer?.id,
      });
      // The path the call was routed on (normalised, as Kong forwards it), with its query if any.
      // A rejection nobody handles would end the process: whatever escapes #forward ends the call.
      this.#forward(stream, headers, info, match.value, match.upstreamPath + query, new PeerAttempts(match.value, this.#deps.hooks, hashRequest), plugins)
        .catch(() => answerError(stream, 'UNEXPECTED'));
    };
    if (match.value.plugins === undefined || plugins === undefined || raw === undefined) return proceed(undefined);
    plugins.clientIp = this.#deps.realIp === undefined ? info.remoteAddress : realClientAddress(info.remoteAddress, raw, this.#deps.realIp);
    let outcome: AccessOutcome;
    try {
      outcome = runAccessPhase(match.value.plugins, plugins);
    } catch {
      return answerError(stream, 'UNEXPECTED');
    }
    if (outcome instanceof Promise) {
      outcome.then(proceed).catch(() => answerError(stream, 'UNEXPECTED'));
      return;
    }
    proceed(outcome);
  }

  async #forward(stream: ServerHttp2Stream, headers: IncomingHttpHeaders, info: GrpcCallInfo, target: ProxyRoute, path: string, attempts: PeerAttempts, plugins?: PluginContext): Promise<void> {
    const { service, upstream } = target;
    let session: ClientHttp2Session;
    let peer: UpstreamEndpoint | undefined;
    let startedAt: number;
    for (;;) {
      peer = attempts.pick();
      if (peer === undefined) return answerError(stream, 'NO_PEER');
      startedAt = performance.now();
      try {
        session = await this.#pool.get(peer.host, peer.port, target.tls, service.connect_timeout);
        break;
      } catch (err) {
        const failure = err instanceof SessionError ? err.failure : 'tcp_failure';
        if (!attempts.failed(failure, !stream.destroyed)) return answerError(stream, failure === 'timeout' ? 'UPSTREAM_TIMEOUT' : 'BAD_GATEWAY');
      }
    }
    if (stream.destroyed) {
      attempts.release();
      return;
    }
    const authority = target.route.preserve_host && headers[':authority']
      ? headers[':authority']
      : upstream !== undefined ? addressHostHeader(upstream, peer, service.protocol) : target.endpointHostHeader;
    const out = forwardable(headers, {
      ':method': headers[':method'] ?? 'POST',
      ':path': path,
      ':scheme': target.tls ? 'https' : 'http',
      ':authority': authority,
    });
    // Kong's X-Forwarded-* (no trusted_ips: the client's own values are replaced).
    out['x-forwarded-for'] = info.remoteAddress;
    out['x-forwarded-proto'] = info.scheme === 'https' ? 'grpcs' : 'grpc';
    out['x-forwarded-port'] = String(info.port);
    out['x-real-ip'] = info.remoteAddress;
    // Plugins' edits: consumer headers set, credentials removed.
    const edits = plugins?.headerEdits;
    for (let i = 0; edits !== undefined && i < edits.lowers.length; i++) {
      const lower = edits.lowers[i]!;
      const edit = edits.edits[i]!;
      if (edit === null) delete out[lower];
      else out[lower] = typeof edit[1] === 'string' ? edit[1] : [...edit[1]];
    }

    let settled = false;
    let responded = false;
    const settle = (outcome: number | 'tcp_failure' | 'timeout'): void => {
      if (settled) return;
      settled = true;
      if (typeof outcome === 'number') {
        attempts.answered(outcome);
        // The latency algorithm's sample, as for HTTP: connect + response time.
        attempts.release(responded ? performance.now() - startedAt : undefined);
      } else {
        attempts.failed(outcome, false);
      }
    };
    const call = session.request(out);
    // The upstream connection failed: a 502 as from nginx, or the client's stream reset once
    // its response has begun.
    const upstreamFailed = (): void => {
      settle('tcp_failure');
      call.unpipe(stream);
      if (!stream.headersSent) answerError(stream, 'BAD_GATEWAY');
      else stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    };
    call.on('error', () => {
      if (!settled) upstreamFailed();
    });
    // A call closed with nothing settled and no clean end: its session was destroyed or its
    // connection cut (the upstream restarted) after the call was sent, which node reports with
    // no 'error' (nginx: "upstream prematurely closed connection"). Once it has ended cleanly
    // the client's trailers are still to come ('wantTrailers' settles).
    call.once('close', () => {
      if (!settled && call.rstCode !== constants.NGHTTP2_NO_ERROR) upstreamFailed();
    });
    // nginx grpc_read_timeout / grpc_send_timeout: the longest the call may sit idle.
    call.setTimeout(Math.max(service.read_timeout, service.write_timeout), () => {
      settle('timeout');
      call.close(constants.NGHTTP2_CANCEL);
      if (!stream.headersSent) answerError(stream, 'UPSTREAM_TIMEOUT');
      else stream.close(constants.NGHTTP2_CANCEL);
    });
    // The client went away: cancel the call upstream.
    stream.once('close', () => {
      if (!call.closed) call.close(constants.NGHTTP2_CANCEL);
      settle(499);
    });
    stream.pipe(call);

    let trailers: IncomingHttpHeaders | undefined;
    let httpStatus = 0;
    call.once('response', (h) => {
      responded = true;
      httpStatus = Number(h[':status']);
      const response = forwardable(h, { ':status': httpStatus });
      // Cookie hashing without the cookie: Kong's Set-Cookie, as on an HTTP response.
      if (attempts.setCookie !== undefined) response['set-cookie'] = attempts.setCookie;
      if (h['grpc-status'] !== undefined) {
        // A trailers-only response (gRPC over HTTP/2 spec): the status is in the headers.
        settle(httpStatusOfGrpcStatus(h['grpc-status'] as string));
        stream.respond(response, { endStream: true });
        return;
      }
      stream.respond(response, { waitForTrailers: true });
      call.pipe(stream);
    });
    call.on('trailers', (t: IncomingHttpHeaders) => {
      trailers = t;
    });
    stream.on('wantTrailers', () => {
      const status = trailers?.['grpc-status'];
      settle(status !== undefined ? httpStatusOfGrpcStatus(status as string) : httpStatus);
      if (trailers !== undefined) stream.sendTrailers(forwardable(trailers, {}));
      else stream.close();
    });
  }
}

/**
 * A gateway error as a gRPC trailers-only response (grpc/doc/PROTOCOL-HTTP2.md): Kong's
 * message in grpc-message, its HTTP status mapped to a gRPC status.
 */
function answerError(stream: ServerHttp2Stream, code: GatewayErrorCode): void {
  const { status: httpStatus, message } = GATEWAY_ERROR_CATALOG[code];
  answerStatus(stream, httpStatus, message);
}

/** Any HTTP status and message (a plugin's exit) as a trailers-only gRPC answer. */
function answerStatus(stream: ServerHttp2Stream, httpStatus: number, message: string): void {
  if (stream.destroyed || stream.closed) return;
  if (stream.headersSent) {
    stream.close(constants.NGHTTP2_INTERNAL_ERROR);
    return;
  }
  stream.respond({
    ':status': 200,
    'content-type': 'application/grpc',
    'grpc-status': String(grpcStatusOfHttpStatus(httpStatus)),
    // grpc-message is percent-encoded; Kong's messages are plain ASCII.
    'grpc-message': encodeURIComponent(message),
  }, { endStream: true });
  // Whatever the client still sends is not wanted.
  stream.resume();
}
