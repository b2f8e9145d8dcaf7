// response-transformer against a real two-worker gateway: cases from Kong's
// spec/03-plugins/15-response-transformer/ (01-header_transformer_spec.lua,
// 02-body_transformer_spec.lua, 04-filter_spec.lua): Kong's order remove, rename, replace, add,
// append, each decided on the headers as the upstream sent them; JSON bodies only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { startUpstream } from '../proxy/proxy.fixture.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';

const BODY = { url: 'http://x/get', headers: { a: 1 }, uri_args: {}, ip: '127.0.0.1', p1: 'v1', p2: ['a'], falsy: false, nil: null };

const route = (host: string, config: string, more = ''): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: response-transformer, config: ${config} }${more}]`;
const yml = (upstream: string): string => `_format_version: "3.0"
consumers: [{ username: bob, keyauth_credentials: [{ key: kong }] }]
services:
  - name: json
    url: ${upstream}
    routes:${route('remove.test', "{ remove: { headers: [Access-Control-Allow-Origin], json: [url] } }")}${route('replace.test', String.raw`{ replace: { json: ['headers:/hello/world', 'uri_args:this is a / test', 'url:"wot"', 'falsy:x', 'nil:y', 'absent:z'] } }`)}${route('headers.test', "{ remove: { headers: [h1] }, rename: { headers: ['h2:h-two', 'h1:h-one'] }, replace: { headers: ['h3:value:3', 'nope:x'] }, add: { headers: ['h1:added', 'h4:v4', 'h3:no'] }, append: { headers: ['h3:more', 'h5:v5'] } }")}${route('json.test', "{ rename: { json: ['p1:renamed'] }, add: { json: ['n:42', 'b:true', 's:42', 'falsy:now', 'p2:no'], json_types: [number, boolean, string] }, append: { json: ['p2:b', 'ip:10.0.0.1', 'new:x'] } }")}${route('auth.test', "{ add: { headers: ['x-added:1'], json: ['k:v'] } }", ', { name: key-auth }')}${route('text.test', "{ add: { json: ['k:v'] } }")}
`;

async function call(proxy: string, host: string, path = '/'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const res = await request(proxy + path, { headers: { Host: host, connection: 'close' } });
  return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
}

test('response-transformer: Kong\'s spec cases', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    const text = req.url === '/text' ? 'not json' : JSON.stringify(BODY);
    res.setHeader('Content-Type', req.url === '/text' ? 'text/plain' : 'application/json; charset=utf-8');
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('h1', 'one');
    res.setHeader('h2', ['two-a', 'two-b']);
    res.setHeader('h3', 'three');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  });
  const g = await startGatewayProcess(t, yml(`http://127.0.0.1:${upstream.port}`), { workers: 2 });

  const removed = await call(g.proxy, 'remove.test');
  assert.equal(removed.status, 200);
  assert.equal(removed.headers['access-control-allow-origin'], undefined, 'header removed');
  assert.equal((JSON.parse(removed.text) as Record<string, unknown>).url, undefined, 'json field removed');
  assert.equal(removed.headers['content-length'], undefined, 'the body changed: no Content-Length');

  const replaced = JSON.parse((await call(g.proxy, 'replace.test')).text) as Record<string, unknown>;
  assert.equal(replaced.headers, '/hello/world');
  assert.equal(replaced.uri_args, 'this is a / test');
  assert.equal(replaced.url, '"wot"');
  assert.equal(replaced.falsy, false, 'a false value is not replaced (Lua truthiness)');
  assert.equal(replaced.nil, 'y', 'null is replaced (cjson.null is truthy)');
  assert.equal('absent' in replaced, false, 'replace never adds');

  // Every step looks at the headers as the upstream sent them (kong.response.get_headers() before the edits).
  const h = (await call(g.proxy, 'headers.test')).headers;
  assert.equal(h['h-one'], 'one', 'rename sees h1 although remove ran first');
  assert.equal(h.h1, undefined, 'and add does not bring h1 back: it was there before');
  assert.deepEqual(h['h-two'], ['two-a', 'two-b'], 'rename keeps every value');
  assert.equal(h.h2, undefined);
  assert.deepEqual(h.h3, ['value:3', 'more'], 'replace (a value may hold colons), then append');
  assert.equal(h.nope, undefined, 'replace never adds');
  assert.equal(h.h4, 'v4');
  assert.equal(h.h5, 'v5', 'append adds when absent');

  const json = JSON.parse((await call(g.proxy, 'json.test')).text) as Record<string, unknown>;
  assert.equal(json.renamed, 'v1');
  assert.equal(json.p1, undefined);
  assert.equal(json.n, 42, 'json_types number');
  assert.equal(json.b, true, 'json_types boolean');
  assert.equal(json.s, '42', 'json_types string');
  assert.equal(json.falsy, 'now', 'add fills a false value (Lua truthiness)');
  assert.deepEqual(json.p2, ['a', 'b'], 'add skips an existing key; append grows a list');
  assert.deepEqual(json.ip, ['127.0.0.1', '10.0.0.1'], 'append turns a string into a list');
  assert.deepEqual(json.new, ['x']);

  const denied = await call(g.proxy, 'auth.test');
  assert.equal(denied.status, 401, 'short-circuited in access');
  assert.equal(denied.headers['x-added'], '1', 'header_filter still runs on the exit');
  assert.equal((JSON.parse(denied.text) as Record<string, unknown>).k, 'v', 'and the JSON error body is transformed too');

  const text = await call(g.proxy, 'text.test', '/text');
  assert.equal(text.text, 'not json', 'a non-JSON body is left alone');
  assert.equal(text.headers['content-length'], '8');
});

test('response-transformer: schema errors in Kong\'s words', () => {
  const fields = (config: string): unknown => {
    try {
      parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: response-transformer, config: ${config} }]\n`);
    } catch (e) {
      if (e instanceof GatewayError) return (e.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw e;
    }
    return undefined;
  };
  assert.deepEqual(fields("{ add: { json: ['no-colon'] } }"), { add: { json: ['invalid value: no-colon'] } });
  assert.deepEqual(fields("{ rename: { headers: ['a:b c'] } }"), { rename: { headers: ["'b c' is not a valid header"] } });
  assert.deepEqual(fields("{ add: { json_types: [list] } }"), { add: { json_types: ['expected one of: boolean, number, string'] } });
  assert.deepEqual(fields(String.raw`{ add: { headers: ["x:a\r\nSet-Cookie: y"] } }`), { add: { headers: ["'x' has a value that is not a valid header value"] } });
});
