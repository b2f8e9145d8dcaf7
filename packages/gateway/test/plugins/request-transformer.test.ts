// request-transformer against a real two-worker gateway: cases from Kong's
// spec/03-plugins/36-request-transformer/02-access_spec.lua (remove, rename, replace, add,
// append on headers, querystring, JSON and form bodies; http_method; replace.uri; templates)
// and 01-schema_spec.lua (errors), plus the refusals of what this gateway does not evaluate.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { startGatewayProcess } from '../health/gateway-process.ts';
import { send, startGateway, startUpstream } from '../proxy/proxy.fixture.ts';
import { RecordingUpstream } from '../http1/recording-upstream.ts';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';

type Echo = { method: string; url: string; headers: Record<string, string | string[] | undefined>; body: string };

const route = (host: string, config: string, paths = ''): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]${paths === '' ? '' : `\n        paths: ['${paths}']\n        strip_path: false`}
        plugins: [{ name: request-transformer, config: ${config} }]`;
const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:${[
  route('test1.test', "{ add: { headers: ['h1:v1', 'h2:value:2'], querystring: ['q1:v1'], body: ['p1:v1'] } }"),
  route('test2.test', "{ add: { headers: ['host:mark'] } }"),
  route('test3.test', `{ add: { headers: ['x-added:a1', 'x-added2:b1', 'x-added3:c2'], querystring: ['query-added:newvalue', 'p1:anything:1'], body: ['newformparam:newvalue'] },
          remove: { headers: [x-to-remove], querystring: [toremovequery] }, append: { headers: ['x-added:a2', 'x-added:a3'], querystring: ['p1:a2', 'p2:b1'] },
          replace: { headers: ['x-to-replace:false'], querystring: ['toreplacequery:no'] } }`),
  route('test4.test', '{ remove: { headers: [x-to-remove], querystring: [q1], body: [toremoveform] } }'),
  route('test5.test', "{ replace: { headers: ['h1:v1'], querystring: ['q1:v1'], body: ['p1:v1'] } }"),
  route('test6.test', "{ append: { headers: ['h1:v1', 'h1:v2', 'h2:v1'], querystring: ['q1:v1', 'q1:v2', 'q2:v1'], body: ['p1:v1', 'p1:v2', 'p2:value:1'] } }"),
  route('test7.test', '{ http_method: POST }'),
  route('test8.test', '{ http_method: GET }'),
  route('test9.test', "{ rename: { headers: ['x-to-rename:x-is-renamed'], querystring: ['originalparam:renamedparam'], body: ['originalparam:renamedparam'] } }"),
  route('test10.test', String.raw`{ add: { querystring: ['uri_param1:$(uri_captures.user1)', 'uri_param2:$(uri_captures["user2"])'] }, replace: { uri: '/requests/user2/$(uri_captures.user2)/user1/$(uri_captures.user1)' } }`, String.raw`~/requests/user1/(?<user1>\w+)/user2/(?<user2>\S+)`),
  route('test11.test', String.raw`{ add: { querystring: ["uri_param1:$(uri_captures.nope or 'default1')", 'uri_param2:$(headers.host)'], headers: ['x-test-header:$(query_params.q1)'] } }`),
  route('test12.test', String.raw`{ add: { headers: ['x-from:$(headers["x-remove-header"])'] }, remove: { headers: [x-remove-header] } }`),
  route('test13.test', "{ replace: { headers: ['host:replaced.test'] } }"),
  route('test14.test', "{ replace: { uri: '/new/$(headers.x-path)' } }".replace('$(headers.x-path)', '$(headers["x-path"])')),
].join('')}
`;

async function call(proxy: string, path: string, opts: { method?: string; headers?: Record<string, string | string[]>; body?: string } = {}): Promise<{ status: number; echo: Echo }> {
  const res = await request(proxy + path, { method: (opts.method ?? 'GET') as 'GET', headers: { connection: 'close', ...opts.headers }, ...(opts.body === undefined ? {} : { body: opts.body }) });
  const text = await res.body.text();
  return { status: res.statusCode, echo: (text.startsWith('{"method"') ? JSON.parse(text) : { body: text }) as Echo };
}
const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };
const JSON_CT = { 'Content-Type': 'application/json' };

test('request-transformer: Kong\'s access spec cases', async (t) => {
  const upstream = await startUpstream(t, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      res.setHeader('Content-Type', 'application/json');
      res.end(JSON.stringify({ method: req.method, url: req.url, headers: req.headers, body: Buffer.concat(parts).toString() }));
    });
  });
  const g = await startGatewayProcess(t, yml(`http://127.0.0.1:${upstream.port}`), { workers: 2 });
  const host = (h: string, more: Record<string, string | string[]> = {}) => ({ Host: h, ...more });

  // add
  let r = await call(g.proxy, '/request', { method: 'POST', headers: host('test1.test', FORM), body: 'hello=world' });
  assert.equal(r.echo.headers.h1, 'v1');
  assert.equal(r.echo.headers.h2, 'value:2', 'a value may hold colons');
  assert.equal(r.echo.url, '/request?q1=v1');
  assert.equal(r.echo.body, 'hello=world&p1=v1', 'form body: added');
  assert.equal(r.echo.headers['content-length'], String(r.echo.body.length), 'Content-Length follows the new body');
  r = await call(g.proxy, '/request', { method: 'POST', headers: host('test1.test', { ...JSON_CT, h1: 'mine' }), body: '{"hello":"world","p1":false}' });
  assert.deepEqual(JSON.parse(r.echo.body), { hello: 'world', p1: 'v1' }, 'JSON: add fills a false value (Lua truthiness)');
  assert.equal(r.echo.headers.h1, 'mine', 'add never overwrites a header');
  r = await call(g.proxy, '/request', { method: 'POST', headers: host('test1.test', JSON_CT) });
  assert.deepEqual(JSON.parse(r.echo.body), { p1: 'v1' }, 'an empty JSON body gets the added field');
  r = await call(g.proxy, '/request?q1=mine', { headers: host('test1.test') });
  assert.equal(r.echo.url, '/request?q1=mine', 'add never overwrites an argument');
  r = await call(g.proxy, '/request', { headers: host('test2.test') });
  assert.equal(r.echo.headers.host, `127.0.0.1:${upstream.port}`, 'add never sets host');

  // everything together (test3)
  r = await call(g.proxy, '/request?toremovequery=yes&toreplacequery=yes&p1=x', {
    headers: host('test3.test', { 'x-to-remove': 'true', 'x-to-replace': 'true', 'x-added': 'a0' }),
  });
  assert.equal(r.echo.headers['x-to-remove'], undefined);
  assert.equal(r.echo.headers['x-to-replace'], 'false');
  assert.equal(r.echo.headers['x-added'], 'a0, a2, a3', 'append after the client\'s value (node joins repeated headers)');
  assert.equal(r.echo.headers['x-added2'], 'b1');
  assert.equal(r.echo.url, '/request?p1=x&p1=a2&p2=b1&query-added=newvalue&toreplacequery=no', 'names in lexicographical order (kong.service.request.set_query)');

  // remove
  r = await call(g.proxy, '/request?q1=v1&q2=v2', { method: 'POST', headers: host('test4.test', { ...FORM, 'x-to-remove': 'true' }), body: 'toremoveform=yes&nottoremove=yes' });
  assert.equal(r.echo.headers['x-to-remove'], undefined);
  assert.equal(r.echo.url, '/request?q2=v2');
  assert.equal(r.echo.body, 'nottoremove=yes');
  r = await call(g.proxy, '/request', { method: 'POST', headers: host('test4.test', JSON_CT), body: '{"toremoveform":"yes","nottoremove":"yes"}' });
  assert.deepEqual(JSON.parse(r.echo.body), { nottoremove: 'yes' });
  r = await call(g.proxy, '/request', { method: 'POST', headers: host('test4.test', JSON_CT), body: 'not json' });
  assert.equal(r.echo.body, 'not json', 'an unparsable JSON body is sent as it came');
  r = await call(g.proxy, '/request', { method: 'POST', headers: host('test4.test', { 'Content-Type': 'multipart/form-data; boundary=x' }), body: '--x--\r\n' });
  assert.equal(r.echo.body, '--x--\r\n', 'multipart bodies are not edited here');

  // replace
  r = await call(g.proxy, '/request?q1=orig&q2=v2', { method: 'POST', headers: host('test5.test', { ...FORM, h1: 'orig', h2: 'v2' }), body: 'p1=orig&p2=v2' });
  assert.equal(r.echo.headers.h1, 'v1');
  assert.equal(r.echo.url, '/request?q1=v1&q2=v2');
  assert.equal(r.echo.body, 'p1=v1&p2=v2');
  r = await call(g.proxy, '/request', { headers: host('test5.test') });
  assert.equal(r.echo.headers.h1, undefined, 'replace never adds');
  assert.equal(r.echo.url, '/request');

  // append
  r = await call(g.proxy, '/request?q1=v0', { method: 'POST', headers: host('test6.test', FORM), body: 'p1=v0' });
  assert.equal(r.echo.headers.h1, 'v1, v2');
  assert.equal(r.echo.url, '/request?q1=v0&q1=v1&q1=v2&q2=v1');
  assert.equal(r.echo.body, 'p1=v0&p1=v1&p1=v2&p2=value%3A1');
  r = await call(g.proxy, '/request', { method: 'POST', headers: host('test6.test', JSON_CT), body: '{"p1":"v0"}' });
  assert.deepEqual(JSON.parse(r.echo.body), { p1: ['v0', 'v1', 'v2'], p2: ['value:1'] });

  // http_method
  r = await call(g.proxy, '/request', { headers: host('test7.test') });
  assert.equal(r.echo.method, 'POST');
  r = await call(g.proxy, '/request?hello=world', { method: 'POST', headers: host('test8.test', FORM), body: 'p1=v1' });
  assert.equal(r.echo.method, 'GET');
  assert.equal(r.echo.url, '/request?hello=world&p1=v1', 'a form body moves into the query string');

  // rename
  r = await call(g.proxy, '/request?originalparam=yes', { method: 'POST', headers: host('test9.test', { ...JSON_CT, 'x-to-rename': 'true' }), body: '{"originalparam":"yes","other":1}' });
  assert.equal(r.echo.headers['x-is-renamed'], 'true');
  assert.equal(r.echo.headers['x-to-rename'], undefined);
  assert.equal(r.echo.url, '/request?renamedparam=yes');
  assert.deepEqual(JSON.parse(r.echo.body), { other: 1, renamedparam: 'yes' });

  // templates
  r = await call(g.proxy, '/requests/user1/foo/user2/bar', { headers: host('test10.test') });
  assert.equal(r.echo.url, '/requests/user2/bar/user1/foo?uri_param1=foo&uri_param2=bar', 'uri_captures in the path and the query');
  r = await call(g.proxy, '/request?q1=20', { headers: host('test11.test') });
  assert.equal(r.echo.headers['x-test-header'], '20');
  assert.equal(r.echo.url, '/request?q1=20&uri_param1=default1&uri_param2=test11.test', "`or 'default'` for an absent value");
  r = await call(g.proxy, '/request', { headers: host('test11.test') });
  assert.equal(r.echo.headers['x-test-header'], '', 'an absent value renders empty');
  r = await call(g.proxy, '/request', { headers: host('test12.test', { 'x-remove-header': 'its-value' }) });
  assert.equal(r.echo.headers['x-from'], 'its-value', 'templates read the request as received');
  assert.equal(r.echo.headers['x-remove-header'], undefined);
  r = await call(g.proxy, '/request?q1=a&q1=b', { headers: host('test11.test') });
  assert.equal(r.status, 500, 'a repeated argument in a template is Kong\'s 500 (a Lua table cannot be concatenated)');

  // host and path, as attacks: a replaced Host; a templated path cannot inject a query or a line
  r = await call(g.proxy, '/request', { headers: host('test13.test') });
  assert.equal(r.echo.headers.host, 'replaced.test');
  r = await call(g.proxy, '/request', { headers: host('test14.test', { 'x-path': 'a?admin=1#x' }) });
  assert.equal(r.echo.url, '/new/a%3Fadmin=1%23x');
});

test('request-transformer: schema errors (Kong\'s words, and what is refused here)', () => {
  const fields = (config: string): unknown => {
    try {
      parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: request-transformer, config: ${config} }]\n`);
    } catch (e) {
      if (e instanceof GatewayError) return (e.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw e;
    }
    return undefined;
  };
  assert.deepEqual(fields("{ add: { querystring: ['q1'] } }"), { add: { querystring: ["key 'q1' has no value"] } });
  assert.deepEqual(fields("{ add: { headers: ['a b:c'] } }"), { add: { headers: ["'a b' is not a valid header"] } });
  assert.deepEqual(fields("{ rename: { headers: ['a:b c'] } }"), { rename: { headers: ["'b c' is not a valid header"] } });
  assert.deepEqual(fields('{ http_method: get }'), { http_method: 'invalid value: get' });
  const lua = fields(String.raw`{ add: { headers: ['x:$(string.sub(query_params.user, 1, 3))'] } }`) as { add: { headers: string[] } };
  assert.match(lua.add.headers[0]!, /^value '\$\(string\.sub\(query_params\.user, 1, 3\)\)' is not in supported format, error:the expression '\$\(string.sub\(query_params.user, 1, 3\)\)' is not supported by this gateway/);
  // A client's value in Content-Length or Transfer-Encoding would desynchronise the upstream's framing.
  assert.deepEqual(fields(String.raw`{ add: { headers: ['Content-Length:$(headers.x)'] } }`), { add: { headers: ["'Content-Length' is a header the gateway sets itself; it cannot be transformed"] } });
  assert.deepEqual(fields("{ rename: { headers: ['x:transfer-encoding'] } }"), { rename: { headers: ["'transfer-encoding' is a header the gateway sets itself; it cannot be transformed"] } });
  assert.equal(fields(String.raw`{ add: { headers: ["x:$(headers['y'] or 'z')", 'y:$(uri_captures[0])'] }, replace: { headers: ['host:h'] } }`), undefined);
});

// A replaced Host renders decoded client input ($(query_params.x), $(uri_captures.x)): anything
// but a host[:port] is refused (500, as a bad header value is), so a CR LF cannot end the Host
// line and smuggle a second request onto the kept-alive upstream connection.
test('request-transformer: a templated Host that is not a host[:port] is refused, never written upstream', async (t) => {
  const up = await RecordingUpstream.start(t);
  const g = await startGateway(t, parseDeclarativeConfig(`_format_version: "3.0"
services:
  - name: tenants
    url: http://127.0.0.1:${up.port}
    routes:
      - name: by-query
        paths: [/tenant]
        plugins: [{ name: request-transformer, config: { replace: { headers: ['host:$(query_params.tenant).internal'] } } }]
      - name: by-capture
        paths: ['~/t/(?<tenant>[^/]+)/']
        plugins: [{ name: request-transformer, config: { replace: { headers: ['host:$(uri_captures.tenant).internal'] } } }]
`));
  const get = async (path: string): Promise<number> => (await send(g, path)).status;
  const hosts = (): string[] => up.take().map((r) => r.rawHeaders.filter((_, i, a) => i % 2 === 1 && a[i - 1]!.toLowerCase() === 'host').join());

  assert.equal(await get('/tenant?tenant=acme'), 200);
  assert.equal(await get('/t/acme/x'), 200);
  assert.equal(await get('/tenant?tenant=acme.eu&x=1'), 200);
  assert.deepEqual(hosts(), ['acme.internal', 'acme.internal', 'acme.eu.internal'], 'a host name renders as before');

  const smuggle = 'a%0d%0aContent-Length:%200%0d%0a%0d%0aGET%20/internal/admin-only%20HTTP/1.1%0d%0aX-Consumer-Username:%20admin%0d%0aX-Pad:%20';
  assert.equal(await get(`/tenant?tenant=${smuggle}`), 500);
  assert.equal(await get('/tenant?tenant=acme%0d%0aX-Consumer-Username:%20admin%0d%0a'), 500);
  assert.equal(await get('/t/a%0d%0aX-Injected:%201/x'), 500);
  assert.equal(await get('/tenant?tenant=a%00b'), 500);
  assert.equal(await get('/tenant?tenant=a%20b'), 500, 'a space is no host either');
  assert.equal(await get('/tenant?tenant=a/b'), 500);
  assert.deepEqual(up.take(), [], 'nothing reached the upstream: no request, smuggled or not');
});
