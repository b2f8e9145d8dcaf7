// Plugin tests against a real gateway: an echo upstream (answers with the request it got), a
// kong.yml naming it, and `signet-gateway start --workers 2` on it. Each request opens its own
// connection, so consecutive requests are served by both workers.
import assert from 'node:assert/strict';
import type { Readable } from 'node:stream';
import type { TestContext } from 'node:test';
import { request } from 'undici';
import { startGatewayProcess, type GatewayProcess } from '../health/gateway-process.ts';
import { startUpstream, type FakeUpstream } from '../proxy/proxy.fixture.ts';

/** What the echo upstream saw, and what the client got. */
export type Exchange = {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  /** The JSON body: the upstream's echo ({url, headers, body}) or Kong's error ({message}). */
  readonly json: { url?: string; headers?: Record<string, string>; body?: string; message?: string; request_id?: string };
};

export type PluginGateway = GatewayProcess & {
  readonly upstream: FakeUpstream;
  /** One request through the proxy on a fresh connection. */
  call(path: string, options?: { method?: string; headers?: Record<string, string | string[]>; body?: string | Buffer | Readable }): Promise<Exchange>;
};

/** Starts an echo upstream and a two-worker gateway on `yml(upstreamUrl)`. */
export async function startPluginGateway(t: TestContext, yml: (upstreamUrl: string) => string, env: Record<string, string> = {}): Promise<PluginGateway> {
  // The echo: the request line, the headers and the body (latin1, so every byte shows) as received.
  const upstream = await startUpstream(t, (req, res, up) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ port: up.port, method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(parts).toString('latin1') }));
    });
  });
  const gateway = await startGatewayProcess(t, yml(`http://127.0.0.1:${upstream.port}`), { workers: 2, env });
  return {
    ...gateway,
    upstream,
    async call(path, options = {}) {
      const res = await request(gateway.proxy + path, {
        method: (options.method ?? 'GET') as 'GET',
        headers: { connection: 'close', ...options.headers },
        ...(options.body === undefined ? {} : { body: options.body }),
      });
      const text = await res.body.text();
      return { status: res.statusCode, headers: res.headers, json: text === '' ? {} : (JSON.parse(text) as Exchange['json']) };
    },
  };
}

/** Basic credentials as a client sends them. */
export const basic = (username: string, password: string): string => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** One row of a plugin's case table: a request, and what the client and the upstream must see. */
export type PluginCase = {
  readonly title: string;
  readonly path: string;
  readonly method?: string;
  readonly headers?: Record<string, string | string[]>;
  /** The request body sent. */
  readonly requestBody?: string;
  readonly status: number;
  /** Kong's error message (for answers the gateway gives itself). */
  readonly message?: string;
  /** The exact JSON body (plugins answering with kong.response.exit: no request_id). */
  readonly body?: unknown;
  /** Response headers the client must get. */
  readonly responseHeaders?: Record<string, string | undefined>;
  /** Headers the upstream must (value) or must not (undefined) get. */
  readonly upstreamHeaders?: Record<string, string | undefined>;
  /** The request target the upstream must get. */
  readonly upstreamUrl?: string;
  /** The body the upstream must get. */
  readonly upstreamBody?: string;
};

/** Runs one case against the gateway and asserts everything it states. */
export async function checkCase(g: PluginGateway, c: PluginCase): Promise<void> {
  const res = await g.call(c.path, { ...(c.method ? { method: c.method } : {}), ...(c.headers ? { headers: c.headers } : {}), ...(c.requestBody === undefined ? {} : { body: c.requestBody }) });
  assert.equal(res.status, c.status, `${c.title}: status (${JSON.stringify(res.json)})`);
  if (c.message !== undefined) {
    assert.equal(res.json.message, c.message, `${c.title}: message`);
    // Kong's error body carries the request id it also sends as a header.
    assert.equal(res.json.request_id, res.headers['x-kong-request-id'], `${c.title}: request_id`);
  }
  if (c.body !== undefined) assert.deepEqual(res.json, c.body, `${c.title}: body`);
  for (const [name, value] of Object.entries(c.responseHeaders ?? {})) assert.equal(res.headers[name.toLowerCase()], value, `${c.title}: response ${name}`);
  for (const [name, value] of Object.entries(c.upstreamHeaders ?? {})) assert.equal(res.json.headers?.[name.toLowerCase()], value, `${c.title}: upstream ${name}`);
  if (c.upstreamUrl !== undefined) assert.equal(res.json.url, c.upstreamUrl, `${c.title}: upstream url`);
  if (c.upstreamBody !== undefined) assert.equal(res.json.body, c.upstreamBody, `${c.title}: upstream body`);
}
