// Real listeners for data-plane tests: fake upstreams (node:http on 127.0.0.1:0) that say who
// they are, and a gateway built with buildGateway on 127.0.0.1:0. Everything is closed in t.after.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect } from 'node:net';
import type { TestContext } from 'node:test';
import { listenOnLoopback } from '@signet/kit/testing';
import { Agent, request, type Dispatcher } from 'undici';
import { buildGateway, type Gateway, type GatewayDeps } from '../../src/build-gateway.ts';
import type { GatewayConfig } from '../../src/config.ts';
import type { Snapshot } from '../../src/declarative/types.ts';

/** A fake upstream: answers `{port, method, url, headers}` unless a handler is given. */
export type FakeUpstream = {
  readonly port: number;
  readonly server: Server;
  /** Requests it received. */
  hits: number;
  readonly requests: IncomingMessage[];
};

export async function startUpstream(
  t: TestContext,
  handler?: (req: IncomingMessage, res: ServerResponse, upstream: FakeUpstream) => void,
): Promise<FakeUpstream> {
  const server = createServer();
  const upstream: FakeUpstream = { port: 0, server, hits: 0, requests: [] };
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    upstream.hits++;
    upstream.requests.push(req);
    if (handler) return handler(req, res, upstream);
    const body = JSON.stringify({ port: upstream.port, method: req.method, url: req.url, headers: req.headers });
    res.writeHead(200, { 'Content-Type': 'application/json', 'X-Upstream-Port': String(upstream.port) });
    res.end(body);
  });
  const port = await listenOnLoopback(server);
  (upstream as { port: number }).port = port;
  t.after(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return upstream;
}

/** A port nothing listens on (bound, then closed): connecting to it is refused. */
/**
 * A port on 127.0.0.1 that refuses connections. Not a closed ephemeral port: with test files
 * running side by side, another test's server could be given that port a moment later (it
 * happened: the "dead" target then accepted). Tests bind port 0, which the kernel takes from the
 * ephemeral range (32768 and up), so a low port that refuses now stays refusing.
 */
export async function refusedPort(): Promise<number> {
  for (const port of [1, 3, 5, 7, 9, 11, 13, 15, 17, 19]) {
    const refused = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(false);
      });
      socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
    });
    if (refused) return port;
  }
  throw new Error('no refusing low port on 127.0.0.1 for the tests');
}

export const TEST_CONFIG: GatewayConfig = {
  declarativeConfig: undefined,
  proxyListen: [{ host: '127.0.0.1', port: 0, ssl: false }],
  adminListen: [],
  workers: 1,
  sslCert: undefined,
  shutdownGraceMs: 1000,
};

export type StartedGateway = { gateway: Gateway; port: number; url: string; client: Dispatcher };

/** A gateway on 127.0.0.1:0 serving `snapshot`, and a keep-alive client for it. */
export async function startGateway(t: TestContext, snapshot: Snapshot, deps: GatewayDeps = {}, config: Partial<GatewayConfig> = {}): Promise<StartedGateway> {
  const gateway = await buildGateway({ ...TEST_CONFIG, ...config }, { snapshot, ...deps });
  const [bound] = await gateway.listen();
  const client = new Agent({ connections: 8 });
  t.after(async () => {
    await client.close();
    await gateway.close();
  });
  const port = bound!.port;
  return { gateway, port, url: `http://127.0.0.1:${port}`, client };
}

/** One request through the gateway; the body read as text. */
export async function send(
  g: StartedGateway,
  path: string,
  options: { method?: Dispatcher.HttpMethod; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const res = await request(g.url + path, {
    dispatcher: g.client,
    method: options.method ?? 'GET',
    headers: options.headers ?? {},
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  return { status: res.statusCode, headers: res.headers, body: await res.body.text() };
}

/** Which upstream port answered each of `n` sequential requests. */
export async function countByPort(g: StartedGateway, path: string, n: number): Promise<Map<number, number>> {
  const counts = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const res = await send(g, path);
    const port = res.status === 200 ? (JSON.parse(res.body) as { port: number }).port : -res.status;
    counts.set(port, (counts.get(port) ?? 0) + 1);
  }
  return counts;
}
