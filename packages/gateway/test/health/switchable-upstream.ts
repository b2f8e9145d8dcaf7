// A real upstream for health tests: an HTTP(S) server on 127.0.0.1:0 that can be switched to
// answer 200, fail with 500, hang (never answer), or refuse connections (listener closed).
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { KeyPair } from '@signet/kit';
import { listenOnLoopback } from '@signet/kit/testing';

export type UpstreamMode = 'ok' | 'fail' | 'hang';

export type SeenRequest = {
  readonly method: string;
  readonly url: string;
  /** `url` without its query. */
  readonly path: string;
  readonly httpVersion: string;
  readonly headers: IncomingHttpHeaders;
  /** What it was answered: 200, 500, or 0 for a request left hanging. */
  readonly status: number;
};

export class SwitchableUpstream {
  mode: UpstreamMode = 'ok';
  /** Per-path overrides of `mode` (e.g. only the health path failing). */
  readonly pathModes = new Map<string, UpstreamMode>();
  /** Requests seen, by path. */
  readonly hits = new Map<string, number>();
  readonly requests: SeenRequest[] = [];
  readonly #server: Server;
  #port = 0;

  private constructor(server: Server) {
    this.#server = server;
    server.on('request', (req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      this.hits.set(path, (this.hits.get(path) ?? 0) + 1);
      const mode = this.pathModes.get(path) ?? this.mode;
      const status = mode === 'hang' ? 0 : mode === 'ok' ? 200 : 500;
      this.requests.push({ method: req.method ?? '', url: req.url ?? '', path, httpVersion: req.httpVersion, headers: req.headers, status });
      if (status === 0) return;
      // Answered once the request's body is read, as an application answers.
      req.resume();
      req.once('end', () => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(this.mode);
      });
    });
  }

  /** Starts a plain HTTP upstream, or HTTPS with the given certificate. */
  static async start(tls?: KeyPair): Promise<SwitchableUpstream> {
    const server = tls ? createHttpsServer({ cert: tls.certPem, key: tls.keyPem }) : createHttpServer();
    const upstream = new SwitchableUpstream(server);
    upstream.#port = await listenOnLoopback(server);
    return upstream;
  }

  get port(): number {
    return this.#port;
  }

  /** `127.0.0.1:port`, the target string. */
  get target(): string {
    return `127.0.0.1:${this.#port}`;
  }

  hitsOn(path: string): number {
    return this.hits.get(path) ?? 0;
  }

  /** Requests answered with `status`, optionally only those on `path`. */
  answered(status: number, path?: string): number {
    return this.requests.filter((r) => r.status === status && (path === undefined || r.path === path)).length;
  }

  /** Stops listening (connections are refused) and drops open sockets, hanging ones included. */
  async refuse(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  /** Listens again on the same port. */
  async accept(): Promise<void> {
    await listenOnLoopback(this.#server, this.#port);
  }

  async close(): Promise<void> {
    if (this.#server.listening) await this.refuse();
  }
}
