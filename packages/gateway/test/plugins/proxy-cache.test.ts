// proxy-cache against a real two-worker gateway: the case table of Kong's
// spec/03-plugins/31-proxy-cache/02-access_spec.lua (memory strategy: hits and misses, the cache
// key's parts, TTLs, Cache-Control both ways, filters on method, status and content type,
// diagnostic headers, streamed responses), 01-schema_spec.lua (the schema), and what the bound
// on memory adds (eviction, responses too large). Each worker holds its own cache, so every
// sequence that expects a Hit runs on one kept-alive connection (one worker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pollUntil } from '@signet/kit';
import { Client, request } from 'undici';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';

// An httpbin-like upstream: each answer carries a serial number, so a Hit is the stored answer.
let served = 0;
function httpbin(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const url = new URL(req.url ?? '/', 'http://upstream');
  const n = ++served;
  const json = (status: number, headers: Record<string, string> = {}, contentType = 'application/json'): void => {
    const body = JSON.stringify({ n, url: req.url });
    res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), ...headers });
    res.end(body);
  };
  const [, first, arg] = url.pathname.split('/');
  switch (first) {
    case 'status': return json(Number(arg));
    case 'xml': return json(200, {}, 'application/xml');
    case 'cache': return json(200, { 'Cache-Control': `public, max-age=${arg}` });
    case 'cookie': return json(200, { 'Set-Cookie': `session=${n}` });
    case 'response-headers': {
      const headers = Object.fromEntries(url.searchParams);
      const contentType = headers['Content-Type'] ?? 'application/json';
      delete headers['Content-Type'];
      return json(200, headers, contentType);
    }
    case 'stream': {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      for (let i = 0; i < Number(arg); i++) res.write(`${JSON.stringify({ n, i })}\n`);
      return void res.end();
    }
    case 'big': {
      const body = Buffer.alloc(Number(arg) * 1024, String(n % 10));
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': body.length });
      return void res.end(body);
    }
    case 'get': case 'post': case 'request': return json(200);
    default: return json(404);
  }
}

const DEFAULT = 'strategy: memory, content_type: [text/plain, application/json]';
const ROUTES: Record<number, string | undefined> = {
  1: `{ ${DEFAULT} }`,
  2: `{ ${DEFAULT} }`,
  3: undefined, // the global instance
  4: undefined,
  5: `{ ${DEFAULT} }`,
  6: `{ ${DEFAULT}, cache_ttl: 1 }`,
  7: `{ ${DEFAULT}, cache_control: true }`,
  8: `{ ${DEFAULT}, cache_control: true, storage_ttl: 600 }`,
  9: `{ ${DEFAULT}, cache_ttl: 1, storage_ttl: 60 }`,
  10: '{ strategy: memory, content_type: ["text/html; charset=utf-8", application/json], response_code: [200, 417], request_method: [GET, HEAD, POST] }',
  11: `{ ${DEFAULT}, response_code: [200], request_method: [GET, HEAD, POST], vary_headers: [foo] }`,
  12: `{ ${DEFAULT}, response_code: [200], request_method: [GET, HEAD, POST], vary_query_params: [foo] }`,
  13: undefined,
  14: undefined,
  15: undefined,
  16: undefined,
  17: '{ strategy: memory, content_type: ["*/*"] }',
  18: '{ strategy: memory, content_type: ["application/xml; charset=UTF-8"] }',
  19: '{ strategy: memory, content_type: ["application/xml;"] }',
  20: `{ ${DEFAULT}, response_code: [404], ignore_uri_case: true }`,
  21: `{ ${DEFAULT}, response_code: [404], ignore_uri_case: false }`,
  22: `{ ${DEFAULT}, response_headers: { age: false, X-Cache-Status: false, X-Cache-Key: false } }`,
  23: `{ ${DEFAULT}, response_headers: { age: true, X-Cache-Status: true, X-Cache-Key: true } }`,
  24: `{ ${DEFAULT} }`,
  25: `{ ${DEFAULT}, memory: { dictionary_name: kong } }`,
};
const KEY_AUTH = new Set([5, 13, 14, 15, 16]);

const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: httpbin
    url: ${upstream}
    routes:${Object.entries(ROUTES).map(([n, config]) => `
      - name: route-${n}
        hosts: [route-${n}.test]
        plugins: [${[config === undefined ? '' : `{ name: proxy-cache, config: ${config} }`, KEY_AUTH.has(Number(n)) ? '{ name: key-auth }' : ''].filter(Boolean).join(', ')}]`).join('')}
plugins:
  - name: proxy-cache
    config: { ${DEFAULT} }
consumers:
  - username: bob
    keyauth_credentials: [{ key: bob }]
  - username: alice
    keyauth_credentials: [{ key: alice }]
`;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: string; n: number | undefined };

/** A client on one kept-alive connection: every request it sends is served by the same worker. */
type OneWorker = { readonly get: (path: string, host: string, headers?: Record<string, string>, method?: string) => Promise<Answer>; readonly close: () => Promise<void> };

function oneWorker(proxy: string): OneWorker {
  const client = new Client(proxy, { pipelining: 1 });
  return {
    async get(path, host, headers = {}, method = 'GET') {
      const res = await client.request({ path, method, headers: { host, ...headers } });
      const body = await res.body.text();
      let n: number | undefined;
      try {
        n = (JSON.parse(body.split('\n')[0]!) as { n?: number }).n;
      } catch {
        n = undefined;
      }
      return { status: res.statusCode, headers: res.headers, body, n };
    },
    close: () => client.close(),
  };
}

const cacheStatus = (a: Answer): unknown => a.headers['x-cache-status'];

test('proxy-cache: Kong\'s access spec cases, TTLs, bounded memory (one gateway)', async (t) => {
  const upstream = await startUpstream(t, httpbin);
  const g = await startGatewayProcess(t, yml(`http://127.0.0.1:${upstream.port}`), { workers: 2 });
  const c = oneWorker(g.proxy);
  t.after(() => c.close());
  const get = c.get;

  await t.test('caches a simple request', async () => {
    const miss = await get('/get', 'route-1.test');
    assert.equal(miss.status, 200);
    assert.equal(cacheStatus(miss), 'Miss');
    const key = miss.headers['x-cache-key'] as string;
    assert.match(key, /^[0-9a-f]{64}$/, 'the key is a sha256 in hex');
    assert.equal(miss.headers.age, undefined, 'no Age on a miss');
    const hit = await get('/get', 'route-1.test');
    assert.equal(cacheStatus(hit), 'Hit');
    assert.equal(hit.headers['x-cache-key'], key);
    assert.equal(hit.body, miss.body, 'the same body: the upstream was not asked');
    assert.equal(hit.headers['content-type'], 'application/json');
    assert.equal(hit.headers['content-length'], String(Buffer.byteLength(hit.body)));
    assert.match(String(hit.headers.age), /^\d+$/);
    assert.match(String(hit.headers['x-kong-proxy-latency']), /^\d+$/, 'Kong core headers on a hit');
    assert.match(String(hit.headers['x-kong-upstream-latency']), /^\d+$/);
    assert.notEqual(hit.headers['x-kong-request-id'], miss.headers['x-kong-request-id'], 'a hit has its own request id');
  });

  await t.test('no X-Cache-* nor Age without Kong-Debug when response_headers are off', async () => {
    await get('/get', 'route-22.test');
    const hit = await get('/get', 'route-22.test');
    assert.equal(cacheStatus(hit), undefined);
    assert.equal(hit.headers['x-cache-key'], undefined);
    assert.equal(hit.headers.age, undefined);
    const debug = await get('/get', 'route-22.test', { 'kong-debug': '1' });
    assert.equal(cacheStatus(debug), 'Hit');
    assert.notEqual(debug.headers.age, undefined);
    assert.notEqual(debug.headers['x-cache-key'], undefined);
    assert.equal(debug.n, hit.n);
  });

  for (const route of ['route-23.test', 'route-24.test']) {
    await t.test(`response_headers on (${route === 'route-23.test' ? 'configured' : 'by default'})`, async () => {
      const miss = await get('/get', route);
      assert.equal(cacheStatus(miss), 'Miss');
      assert.notEqual(miss.headers['x-cache-key'], undefined);
      assert.equal(miss.headers.age, undefined);
      const hit = await get('/get', route);
      assert.equal(cacheStatus(hit), 'Hit');
      assert.notEqual(hit.headers.age, undefined);
      assert.notEqual(hit.headers['x-cache-key'], undefined);
    });
  }

  await t.test('a route\'s own instance and the global one keep separate keys', async () => {
    const a = await get('/get', 'route-3.test');
    const b = await get('/get', 'route-4.test');
    assert.equal(cacheStatus(a), 'Miss');
    assert.equal(cacheStatus(b), 'Miss');
    assert.notEqual(a.headers['x-cache-key'], b.headers['x-cache-key']);
  });

  await t.test('differentiates caches between instances', async () => {
    const miss = await get('/get', 'route-2.test');
    assert.equal(cacheStatus(miss), 'Miss');
    const hit = await get('/get', 'route-2.test');
    assert.equal(cacheStatus(hit), 'Hit');
    assert.equal(hit.headers['x-cache-key'], miss.headers['x-cache-key']);
  });

  await t.test('request params are part of the cache key, in any order', async () => {
    assert.equal(cacheStatus(await get('/get?a=b&b=c', 'route-1.test')), 'Miss');
    assert.equal(cacheStatus(await get('/get?a=c', 'route-1.test')), 'Miss');
    assert.equal(cacheStatus(await get('/get?b=c&a=b', 'route-1.test')), 'Hit');
    assert.equal(cacheStatus(await get('/get?a&b', 'route-1.test')), 'Miss');
    assert.equal(cacheStatus(await get('/get?a&b', 'route-1.test')), 'Hit');
  });

  await t.test('vary_query_params: only those params count', async () => {
    assert.equal(cacheStatus(await get('/get?foo=b&b=c', 'route-12.test')), 'Miss');
    assert.equal(cacheStatus(await get('/get?b=d&foo=b', 'route-12.test')), 'Hit');
  });

  await t.test('vary_headers: those headers are part of the key', async () => {
    assert.equal(cacheStatus(await get('/get', 'route-11.test', { foo: 'bar' })), 'Miss');
    assert.equal(cacheStatus(await get('/get', 'route-11.test', { foo: 'bar' })), 'Hit');
    assert.equal(cacheStatus(await get('/get', 'route-11.test', { foo: 'baz' })), 'Miss');
  });

  await t.test('authenticated routes: no cache without a consumer, one cache per consumer', async () => {
    const refused = await get('/get', 'route-5.test');
    assert.equal(refused.status, 401);
    assert.equal(cacheStatus(refused), undefined);
    assert.equal(cacheStatus(await get('/get', 'route-5.test', { apikey: 'bob' })), 'Miss');
    assert.equal(cacheStatus(await get('/get', 'route-5.test', { apikey: 'bob' })), 'Hit');
    assert.equal(cacheStatus(await get('/get', 'route-5.test', { apikey: 'alice' })), 'Miss');
    assert.equal(cacheStatus(await get('/get', 'route-5.test', { apikey: 'alice' })), 'Hit');
  });

  await t.test('one consumer, different routes or services: different keys', async () => {
    const a = await get('/get', 'route-13.test', { apikey: 'bob' });
    const b = await get('/get', 'route-14.test', { apikey: 'bob' });
    assert.equal(a.status, 200);
    assert.notEqual(a.headers['x-cache-key'], b.headers['x-cache-key']);
  });

  await t.test('bypasses uncacheable requests and responses', async () => {
    assert.equal(cacheStatus(await get('/post', 'route-1.test', { 'content-type': 'application/json' }, 'POST')), 'Bypass', 'request method');
    const teapot = await get('/status/418', 'route-1.test');
    assert.equal(teapot.status, 418);
    assert.equal(cacheStatus(teapot), 'Bypass', 'response status');
    assert.equal(cacheStatus(await get('/xml', 'route-1.test')), 'Bypass', 'response content type');
  });

  await t.test('caches non-default methods and statuses', async () => {
    assert.equal(cacheStatus(await get('/post', 'route-10.test', { 'content-type': 'application/json' }, 'POST')), 'Miss');
    assert.equal(cacheStatus(await get('/post', 'route-10.test', { 'content-type': 'application/json' }, 'POST')), 'Hit');
    const miss = await get('/status/417', 'route-10.test');
    assert.equal(miss.status, 417);
    assert.equal(cacheStatus(miss), 'Miss');
    const hit = await get('/status/417', 'route-10.test');
    assert.equal(hit.status, 417);
    assert.equal(cacheStatus(hit), 'Hit');
  });

  await t.test('content_type: a wildcard, a parameter that does not match, invalid types', async () => {
    const miss = await get('/xml', 'route-17.test');
    assert.equal(miss.headers['content-type'], 'application/xml');
    assert.equal(cacheStatus(miss), 'Miss');
    assert.equal(cacheStatus(await get('/xml', 'route-17.test')), 'Hit');
    assert.equal(cacheStatus(await get('/xml', 'route-18.test')), 'Bypass', 'parameters must match');
    const invalid = await get('/response-headers?Content-Type=application/xml;', 'route-18.test');
    assert.equal(invalid.status, 200);
    assert.equal(invalid.headers['content-type'], 'application/xml;');
    assert.equal(cacheStatus(invalid), 'Bypass', 'an upstream type that does not parse');
    assert.equal(cacheStatus(await get('/xml', 'route-19.test')), 'Bypass', 'a configured type that does not parse');
  });

  await t.test('ignore_uri_case', async () => {
    const miss = await get('/ignore-case/kong', 'route-20.test');
    assert.equal(miss.status, 404);
    assert.equal(cacheStatus(miss), 'Miss');
    const hit = await get('/ignore-case/KONG', 'route-20.test');
    assert.equal(cacheStatus(hit), 'Hit');
    assert.equal(hit.headers['x-cache-key'], miss.headers['x-cache-key']);
    assert.equal(hit.body, miss.body);
    const a = await get('/acknowledge-case/kong', 'route-21.test');
    const b = await get('/acknowledge-case/KONG', 'route-21.test');
    assert.equal(cacheStatus(a), 'Miss');
    assert.equal(cacheStatus(b), 'Miss');
    assert.notEqual(a.headers['x-cache-key'], b.headers['x-cache-key']);
  });

  await t.test('caches a streamed response; the miss keeps its framing', async () => {
    const miss = await get('/stream/3', 'route-1.test');
    assert.equal(cacheStatus(miss), 'Miss');
    assert.equal(miss.headers['content-length'], undefined);
    const hit = await get('/stream/3', 'route-1.test');
    assert.equal(cacheStatus(hit), 'Hit');
    assert.equal(hit.body, miss.body);
  });

  await t.test('a miss keeps the upstream\'s Content-Length', async () => {
    const miss = await get('/get?length', 'route-24.test');
    assert.equal(miss.headers['content-length'], String(Buffer.byteLength(miss.body)), 'body_filter only watches: Content-Length stays');
  });

  await t.test('Cache-Control from the upstream: max-age without public, s-maxage, Expires', async () => {
    assert.equal(cacheStatus(await get(`/response-headers?Cache-Control=${encodeURIComponent('max-age=604800')}`, 'route-7.test')), 'Miss');
    assert.equal(cacheStatus(await get(`/response-headers?Cache-Control=${encodeURIComponent('s-maxage=604800')}`, 'route-7.test')), 'Miss');
    const expires = new Date(Date.now() + 5_000_000).toUTCString();
    assert.equal(cacheStatus(await get(`/response-headers?Expires=${encodeURIComponent(expires)}`, 'route-7.test')), 'Miss');
    assert.equal(cacheStatus(await get('/cache/0', 'route-7.test')), 'Bypass', 'max-age=0 is never cached');
    assert.equal(cacheStatus(await get('/cache/0', 'route-7.test')), 'Bypass');
  });

  await t.test('Cache-Control from the client: min-fresh, only-if-cached', async () => {
    assert.equal(cacheStatus(await get('/cache/2', 'route-7.test')), 'Miss');
    assert.equal(cacheStatus(await get('/cache/2', 'route-7.test', { 'cache-control': 'min-fresh=30' })), 'Refresh');
    const only = await get('/get?not=here', 'route-8.test', { 'cache-control': 'only-if-cached' });
    assert.equal(only.status, 504);
    assert.equal(only.body, '');
  });

  await t.test('TTLs run out (each sequence on its own worker, side by side)', async (t) => {
    // Polls with a deadline until the stored entry is no longer served as it was.
    const until = async (c: OneWorker, path: string, host: string, status: string, headers: Record<string, string> = {}): Promise<void> => {
      await pollUntil(async () => (cacheStatus(await c.get(path, host, headers)) === status ? true : undefined), { timeoutMs: 15_000, intervalMs: 100, what: `${host}${path} to be ${status}` });
    };
    const sequences: Record<string, (c: OneWorker) => Promise<void>> = {
      'cache_ttl: the entry expires with it (storage ttl = cache_ttl)': async (c) => {
        assert.equal(cacheStatus(await c.get('/get', 'route-6.test')), 'Miss');
        assert.equal(cacheStatus(await c.get('/get', 'route-6.test')), 'Hit');
        await until(c, '/get', 'route-6.test', 'Miss');
        assert.equal(cacheStatus(await c.get('/get', 'route-6.test')), 'Hit');
      },
      'storage_ttl longer than cache_ttl: the stale entry is refreshed': async (c) => {
        assert.equal(cacheStatus(await c.get('/get', 'route-9.test')), 'Miss');
        assert.equal(cacheStatus(await c.get('/get', 'route-9.test')), 'Hit');
        await until(c, '/get', 'route-9.test', 'Refresh');
        assert.equal(cacheStatus(await c.get('/get', 'route-9.test')), 'Hit');
      },
      'cache_control: the response\'s max-age is the ttl': async (c) => {
        assert.equal(cacheStatus(await c.get('/cache/1', 'route-7.test')), 'Miss');
        assert.equal(cacheStatus(await c.get('/cache/1', 'route-7.test')), 'Hit');
        await until(c, '/cache/1', 'route-7.test', 'Miss');
        assert.equal(cacheStatus(await c.get('/cache/1', 'route-7.test')), 'Hit');
      },
      'the client\'s max-age': async (c) => {
        const h = { 'cache-control': 'max-age=1' };
        assert.equal(cacheStatus(await c.get('/cache/10', 'route-7.test', h)), 'Miss');
        assert.equal(cacheStatus(await c.get('/cache/10', 'route-7.test', h)), 'Hit');
        await until(c, '/cache/10', 'route-7.test', 'Refresh', h);
      },
      'the client\'s max-stale': async (c) => {
        assert.equal(cacheStatus(await c.get('/cache/1', 'route-8.test')), 'Miss');
        assert.equal(cacheStatus(await c.get('/cache/1', 'route-8.test')), 'Hit');
        await until(c, '/cache/1', 'route-8.test', 'Refresh', { 'cache-control': 'max-stale=1' });
      },
    };
    await Promise.all(Object.entries(sequences).map(([title, run]) => t.test(title, async () => {
      const c = oneWorker(g.proxy);
      try {
        await run(c);
      } finally {
        await c.close();
      }
    })));
  });

  await t.test('bounded memory, and what a shared cache must not share', async (t) => {
    await t.test('a full dictionary evicts its least recently used entries', async () => {
      // The `kong` dictionary holds 5 MiB: three 2 MiB responses do not fit together.
      for (const p of ['/big/2048?a', '/big/2048?b']) assert.equal(cacheStatus(await c.get(p, 'route-25.test')), 'Miss');
      assert.equal(cacheStatus(await c.get('/big/2048?a', 'route-25.test')), 'Hit', 'a is now the most recently used');
      assert.equal(cacheStatus(await c.get('/big/2048?c', 'route-25.test')), 'Miss');
      assert.equal(cacheStatus(await c.get('/big/2048?b', 'route-25.test')), 'Miss', 'b was evicted to make room for c');
      assert.equal(cacheStatus(await c.get('/big/2048?c', 'route-25.test')), 'Hit');
    });

    await t.test('a response larger than the dictionary is never stored', async () => {
      const first = await c.get('/big/6144', 'route-25.test');
      assert.equal(first.body.length, 6144 * 1024, 'it still reaches the client whole');
      assert.equal(cacheStatus(first), 'Miss');
      assert.equal(cacheStatus(await c.get('/big/6144', 'route-25.test')), 'Miss');
    });

    await t.test('a request with Authorization and no consumer is neither served from nor stored in the shared key', async () => {
      const alice = await c.get('/get?me', 'route-1.test', { authorization: 'Bearer alice-token' });
      assert.equal(cacheStatus(alice), 'Bypass');
      const mallory = await c.get('/get?me', 'route-1.test', { authorization: 'Bearer mallory-token' });
      assert.equal(cacheStatus(mallory), 'Bypass');
      assert.notEqual(mallory.n, alice.n, 'mallory got an answer of her own');
      const anonymous = await c.get('/get?me', 'route-1.test');
      assert.equal(cacheStatus(anonymous), 'Miss', 'nothing of alice\'s was stored');
    });

    await t.test('a response setting a cookie is not stored', async () => {
      const first = await c.get('/cookie', 'route-1.test');
      assert.equal(cacheStatus(first), 'Bypass');
      const second = await c.get('/cookie', 'route-1.test');
      assert.notEqual(second.headers['set-cookie'], first.headers['set-cookie'], 'no session handed on');
    });
  });

  // Kong's 03-api_spec.lua: the admin API reaches the entries every worker holds.
  await t.test('admin API: /proxy-cache endpoints', async () => {
    const admin = async (method: string, path: string): Promise<{ status: number; json: Record<string, unknown> | undefined }> => {
      const res = await request(g.admin + path, { method: method as 'GET' });
      const text = await res.body.text();
      return { status: res.statusCode, json: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
    };
    const plugins = (await admin('GET', '/routes/route-1/plugins')).json as { data: { id: string; name: string }[] };
    const pluginId = plugins.data.find((p) => p.name === 'proxy-cache')!.id;
    const debug = { 'kong-debug': '1' };
    const miss = await get('/get?api', 'route-1.test', debug);
    assert.equal(cacheStatus(miss), 'Miss');
    const key = miss.headers['x-cache-key'] as string;
    assert.equal(cacheStatus(await get('/get?api', 'route-1.test', debug)), 'Hit');

    const stored = await admin('GET', `/proxy-cache/${pluginId}/caches/${key}`);
    assert.equal(stored.status, 200, 'get an existing entry');
    assert.equal((stored.json!.headers as Record<string, string>)['X-Cache-Key'], key);
    assert.equal(stored.json!.body, miss.body);
    assert.equal((await admin('GET', `/proxy-cache/${key}`)).status, 200, 'an entry by its key alone');

    assert.equal((await admin('DELETE', `/proxy-cache/${pluginId}/caches/${key}`)).status, 204, 'delete a cache entry');
    assert.equal(cacheStatus(await get('/get?api', 'route-1.test', debug)), 'Miss');
    assert.equal((await admin('DELETE', `/proxy-cache/${key}`)).status, 204, 'delete by key, looking through every instance');
    assert.equal(cacheStatus(await get('/get?api', 'route-1.test', debug)), 'Miss');

    // Purge all the entries.
    assert.equal(cacheStatus(await get('/get?api', 'route-1.test', debug)), 'Hit');
    await get('/get?api', 'route-2.test', debug);
    assert.equal(cacheStatus(await get('/get?api', 'route-2.test', debug)), 'Hit');
    assert.equal((await admin('DELETE', '/proxy-cache')).status, 204);
    assert.equal(cacheStatus(await get('/get?api', 'route-1.test', debug)), 'Miss');
    assert.equal(cacheStatus(await get('/get?api', 'route-2.test', debug)), 'Miss');

    assert.equal((await admin('DELETE', '/proxy-cache')).status, 204);
    assert.deepEqual(await admin('DELETE', `/proxy-cache/${pluginId}/caches/123`), { status: 404, json: undefined }, 'a key that is not there');
    const routeId = ((await admin('GET', '/routes/route-1')).json as { id: string }).id;
    assert.equal((await admin('DELETE', `/proxy-cache/${routeId}/caches/123`)).status, 404, 'an id that is no proxy-cache instance');
    assert.equal((await admin('GET', `/proxy-cache/${pluginId}/caches/${key}`)).status, 404, 'get a purged entry');
    assert.equal((await admin('GET', `/proxy-cache/${key}`)).status, 404);
    assert.equal((await admin('POST', '/proxy-cache')).status, 405);
  });
});

test('proxy-cache: schema defaults and errors in Kong\'s words', () => {
  const parse = (config: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: proxy-cache, config: ${config} }]\n`);
  assert.deepEqual(parse('{ strategy: memory }').plugins[0]!.config, {
    response_code: [200, 301, 404], request_method: ['GET', 'HEAD'], content_type: ['text/plain', 'application/json'], cache_ttl: 300,
    strategy: 'memory', cache_control: false, ignore_uri_case: false, storage_ttl: null, memory: { dictionary_name: 'kong_db_cache' },
    vary_query_params: null, vary_headers: null, response_headers: { age: true, 'X-Cache-Status': true, 'X-Cache-Key': true },
  });
  const fields = (config: string): unknown => {
    try {
      parse(config);
    } catch (e) {
      if (e instanceof GatewayError) return (e.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw e;
    }
    return assert.fail(`expected ${config} to be refused`);
  };
  assert.deepEqual(fields('{ strategy: memory, response_code: [99] }'), { response_code: ['value should be between 100 and 900'] });
  assert.deepEqual(fields('{ strategy: memory, response_code: [] }'), { response_code: 'length must be at least 1' });
  assert.deepEqual(fields('{ strategy: memory, response_code: "" }'), { response_code: 'expected an array' });
  assert.deepEqual(fields('{ strategy: memory, response_code: [true, alo, 123] }'), { response_code: ['expected an integer', 'expected an integer'] });
  assert.deepEqual(fields('{ strategy: memory, response_code: [123.5] }'), { response_code: ['expected an integer'] });
  assert.deepEqual(fields('{ strategy: memory, cache_ttl: -1 }'), { cache_ttl: 'value must be greater than 0' });
  assert.deepEqual(fields('{}'), { strategy: 'required field missing' });
  assert.deepEqual(fields('{ strategy: redis }'), { strategy: 'expected one of: memory' });
  assert.equal(fields('{ strategy: memory, memory: { dictionary_name: nope } }'), "missing shared dict 'nope'");
  for (const ok of ['{ strategy: memory, vary_query_params: [foo] }', '{ strategy: memory, vary_headers: [foo] }', '{ strategy: memory, content_type: ["application/*", "*/text"] }', '{ strategy: memory, content_type: ["application/json; charset=UTF-8"] }', '{ strategy: memory, response_code: [123, 200] }']) {
    assert.doesNotThrow(() => parse(ok), ok);
  }
});
