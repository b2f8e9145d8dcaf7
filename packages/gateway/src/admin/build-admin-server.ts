// The admin API server (node:http; no framework needed for a handful of read-only routes):
// Kong's shapes, loopback by default, errors rendered by GatewayError.toBody().
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { exportConfig } from '../declarative/index.ts';
import { GatewayError } from '../errors.ts';
import { KONG_VERSION, type AdminDeps, type AdminResult, type ServerStats } from './admin-types.ts';
import { routeEntityRequest } from './entity-routes.ts';
import { hashAdminToken } from './admin-token.ts';
import { guardAdminRequest } from './guard-admin-request.ts';
import { postConfig, type RawBody } from './post-config.ts';
import { BUNDLED_PLUGINS, PLUGIN_SCHEMAS } from '../plugins/plugin-schemas.ts';

// Kong's admin listener: client_max_body_size 10m (kong/templates/nginx_kong.lua).
const DEFAULT_MAX_BODY = 10 * 1024 * 1024;

/** The whole request body, refused (413) past `limit` without buffering the rest. */
async function readBody(req: IncomingMessage, limit: number): Promise<RawBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new GatewayError('PAYLOAD_TOO_LARGE');
    chunks.push(chunk);
  }
  return { contentType: req.headers['content-type'] ?? '', bytes: Buffer.concat(chunks) };
}

// Entity writes carry JSON or a urlencoded form (lapis parses both into params); the body only
// matters for the schema check that precedes the DB-less refusal.
function parseJsonBody(body: RawBody): unknown {
  if (body.bytes.length === 0) return {};
  const type = body.contentType.split(';')[0]?.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded') return Object.fromEntries(new URLSearchParams(body.bytes.toString('utf8')));
  try {
    return JSON.parse(body.bytes.toString('utf8'));
  } catch {
    throw new GatewayError('BAD_JSON');
  }
}

const mib = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MiB`;

/** Builds (does not start) the admin API server; listen on 127.0.0.1:8001 unless told otherwise. */
export function buildAdminServer(deps: AdminDeps): Server {
  // GET /status in the shape of nginx stub_status that Kong returns: this listener's own
  // connections and requests plus the proxy listeners'. Only totals are tracked, so the
  // reading/writing split is nginx's view of a quiet node: the status request itself writing,
  // every other open connection waiting.
  const counters = { accepted: 0, active: 0, requests: 0 };
  // POST /config is serialised: a second one while the first applies gets Kong's 429.
  let loading = false;
  const tokenHash = hashAdminToken(deps.adminToken);

  const serverStats = (): ServerStats => {
    const proxy = deps.proxyStats?.() ?? { accepted: 0, active: 0, requests: 0 };
    const accepted = counters.accepted + proxy.accepted;
    const active = counters.active + proxy.active;
    return {
      connections_accepted: accepted,
      connections_active: active,
      connections_handled: accepted,
      connections_reading: 0,
      connections_writing: 1,
      connections_waiting: Math.max(0, active - 1),
      total_requests: counters.requests + proxy.requests,
    };
  };

  const root = (): object => ({
    tagline: 'Welcome to kong',
    version: KONG_VERSION,
    edition: 'community',
    hostname: hostname(),
    node_id: deps.nodeId,
    timers: { running: 0, pending: 0 },
    // Kong: every installed plugin with its version and PRIORITY; those the configuration uses.
    plugins: {
      available_on_server: Object.fromEntries([...(deps.enabledPlugins ?? BUNDLED_PLUGINS)].sort().map((name) => [name, { version: KONG_VERSION, priority: PLUGIN_SCHEMAS.get(name)?.priority }])),
      enabled_in_cluster: [...new Set(deps.snapshot().plugins.map((x) => x.name))].sort(),
    },
    lua_version: `signet-gateway on Node.js ${process.version}`,
    configuration: { database: 'off', role: 'traditional', router_flavor: 'traditional_compatible', ...deps.configuration },
    pids: deps.pids?.() ?? { master: process.pid, workers: [process.pid] },
  });

  const status = (): object => {
    const mem = process.memoryUsage();
    return {
      memory: {
        workers_lua_vms: [{ http_allocated_gc: mib(mem.heapUsed), pid: process.pid }],
        lua_shared_dicts: {},
      },
      server: serverStats(),
      configuration_hash: deps.snapshot().hash,
    };
  };

  // Routing order: extra hooks (health endpoints own /upstreams/{u}/health and …/healthy),
  // then /, /status, /config, then the entity endpoints; anything else is Kong's 404.
  const handle = async (req: IncomingMessage): Promise<AdminResult> => {
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://admin');
    const path = url.pathname;
    // Before anything is routed or read: what a web page could send is refused here.
    guardAdminRequest({ method, pathname: path, headers: req.headers, rawHeaders: req.rawHeaders, localAddress: req.socket.localAddress, localPort: req.socket.localPort }, tokenHash);
    for (const hook of deps.extraRoutes ?? []) {
      const result = await hook(method, path, url.searchParams);
      if (result !== undefined) return result;
    }
    const readOnly = (body: () => object): AdminResult => {
      if (method !== 'GET' && method !== 'HEAD') throw new GatewayError('METHOD_NOT_ALLOWED');
      return { status: 200, body: body() };
    };
    if (path === '/') return readOnly(root);
    if (path === '/status' || path === '/status/') return readOnly(status);
    if (path === '/config' || path === '/config/') {
      if (method === 'POST') {
        const body = await readBody(req, deps.maxBodyBytes ?? DEFAULT_MAX_BODY);
        // One reload at a time (Kong: "Currently loading previous configuration", 429).
        if (loading) throw new GatewayError('CONFIG_LOADING', { headers: { 'retry-after': '1' } });
        loading = true;
        try {
          return await postConfig({
            current: deps.snapshot(),
            body,
            query: url.searchParams,
            apply: async (snapshot) => {
              await deps.applyConfig(snapshot);
            },
            ...(deps.now === undefined ? {} : { now: deps.now() }),
            ...(deps.enabledPlugins === undefined ? {} : { enabledPlugins: deps.enabledPlugins }),
            ...(deps.redisDefaults === undefined ? {} : { redisDefaults: deps.redisDefaults }),
          });
        } finally {
          loading = false;
        }
      }
      return readOnly(() => ({ config: exportConfig(deps.snapshot()) }));
    }
    // Bodies are read before routing so a refused write still drains its request.
    let body: RawBody | undefined;
    if (method === 'POST' || method === 'PUT' || method === 'PATCH') body = await readBody(req, deps.maxBodyBytes ?? DEFAULT_MAX_BODY);
    const result = routeEntityRequest(deps.snapshot(), method, path, url.searchParams, () =>
      body === undefined ? {} : parseJsonBody(body),
    deps.enabledPlugins, deps.now?.());
    if (result === undefined) throw new GatewayError('NOT_FOUND');
    return result;
  };

  // JSON like Kong's admin API (cjson): no body at all for 204 and 304.
  const send = (req: IncomingMessage, res: ServerResponse, result: AdminResult): void => {
    const headers: Record<string, string> = { ...result.headers };
    if (result.text !== undefined) {
      headers['content-length'] = String(Buffer.byteLength(result.text));
      res.writeHead(result.status, headers).end(req.method === 'HEAD' ? undefined : result.text);
      return;
    }
    if (result.body === undefined || result.status === 204 || result.status === 304) {
      res.writeHead(result.status, headers).end();
      return;
    }
    const text = JSON.stringify(result.body);
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = String(Buffer.byteLength(text));
    res.writeHead(result.status, headers).end(req.method === 'HEAD' ? undefined : text);
  };

  const report = deps.onError ?? ((x: unknown) => console.error('admin API:', x));
  // Serialising can throw (a body too large for one string, a value JSON cannot hold). That is
  // our bug: reported and answered as the catalog's generic 500, never an exception escaping
  // the promise chain, which as an unhandled rejection ended the process.
  const answer = (req: IncomingMessage, res: ServerResponse, result: AdminResult): void => {
    try {
      send(req, res, result);
    } catch (error) {
      report(error);
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const e = new GatewayError('UNEXPECTED', {}, { cause: error });
      send(req, res, { status: e.status, body: e.toBody() });
    }
  };

  const server = createServer((req, res) => {
    counters.requests++;
    handle(req).then(
      (result) => answer(req, res, result),
      (error: unknown) => {
        // Kong-shaped errors are answered as they are; anything else is logged and becomes the
        // catalog's generic 500 (never its message).
        const e = error instanceof GatewayError ? error : new GatewayError('UNEXPECTED', {}, { cause: error });
        if (!(error instanceof GatewayError)) report(error);
        const answerError = (): void => answer(req, res, { status: e.status, body: e.toBody(), ...(e.detail.headers === undefined ? {} : { headers: e.detail.headers }) });
        if (req.complete) return answerError();
        // The body is unread (refused before readBody): close rather than reuse. A body of a
        // declared size within the limit is read and dropped first, so the client, still
        // sending it, gets the answer instead of a reset connection.
        res.setHeader('connection', 'close');
        const declared = Number(req.headers['content-length'] ?? NaN);
        if (!(declared <= (deps.maxBodyBytes ?? DEFAULT_MAX_BODY))) return answerError();
        req.once('end', answerError).once('error', () => res.destroy()).resume();
      },
    ).catch((error: unknown) => {
      // Answering itself failed (the socket already gone mid-write): report, drop the connection.
      report(error);
      res.destroy();
    });
  });
  server.on('connection', (socket) => {
    counters.accepted++;
    counters.active++;
    socket.once('close', () => counters.active--);
  });
  return server;
}
