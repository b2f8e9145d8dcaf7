// request-termination against a real two-worker gateway: the case table of Kong's
// spec/03-plugins/14-request-termination/ (02-access_spec.lua: status codes, default and custom
// messages, raw bodies with their content type, 204 without Content-Length, Server, trigger;
// 03-integration_spec.lua: set on a consumer; 01-schema_spec.lua: the schema's errors). Kong's
// serviceless-route case is left out: this gateway does not route a route without a service.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'undici';
import { parseDeclarativeConfig } from '../../src/declarative/parse-declarative-config.ts';
import { GatewayError } from '../../src/errors.ts';
import { SERVER } from '../../src/proxy/kong-headers.ts';
import { startPluginGateway } from './plugins.fixture.ts';

const route = (n: number, config: string): string => `
      - name: api${n}
        hosts: [api${n}.request-termination.test]
        plugins: [{ name: request-termination, config: ${config} }]`;
const yml = (upstream: string): string => `_format_version: "3.0"
services:
  - name: echo
    url: ${upstream}
    routes:${route(1, '{}')}${route(2, '{ status_code: 404 }')}${route(3, '{ status_code: 406, message: Invalid }')}${route(4, "{ body: '<html><body><h1>Service is down for maintenance</h1></body></html>' }")}${route(5, "{ status_code: 451, content_type: text/html, body: '<html><body><h1>Service is down due to content infringement</h1></body></html>' }")}${route(6, `{ status_code: 503, body: '{"code": 1, "message": "Service unavailable"}' }`)}${route(8, '{ status_code: 204 }')}${route(10, '{ trigger: gimme-an-echo, status_code: 404 }')}${route(11, '{ status_code: 418 }')}
      - name: api9
        hosts: [api9.request-termination.test]
        strip_path: false
        paths: ["~/(?<parameter>[^#?/]+)/200"]
        plugins: [{ name: request-termination, config: { echo: true, status_code: 404 } }]
      - name: api12
        hosts: [api12.request-termination.test]
        plugins: [{ name: request-termination, config: { echo: true, trigger: gimme-an-echo, status_code: 404 } }]
      - name: members
        hosts: [members.request-termination.test]
        plugins: [{ name: key-auth }]
consumers:
  - username: bob
    keyauth_credentials: [{ key: kong }]
    plugins: [{ name: request-termination }]
  - username: alice
    keyauth_credentials: [{ key: alice-key }]
`;

type TerminationCase = {
  readonly title: string;
  readonly host: string;
  readonly path?: string;
  readonly headers?: Record<string, string>;
  readonly status: number;
  /** The exact body text ('' for none). */
  readonly body?: string;
  readonly contentType?: string;
  /** Content-Length as sent; undefined: none at all. */
  readonly contentLength?: string | undefined;
};

const CASES: TerminationCase[] = [
  { title: 'default status code and message', host: 'api1', status: 503, body: '{"message":"Service unavailable"}', contentType: 'application/json; charset=utf-8' },
  { title: 'status code with default message', host: 'api2', status: 404, body: '{"message":"Not found"}' },
  { title: 'status code with custom message', host: 'api3', status: 406, body: '{"message":"Invalid"}' },
  { title: 'returns 204 without content length header', host: 'api8', status: 204, body: '', contentLength: undefined },
  { title: 'a status without a default message has no body', host: 'api11', status: 418, body: '', contentLength: '0' },
  { title: 'default status code and body', host: 'api4', status: 503, body: '<html><body><h1>Service is down for maintenance</h1></body></html>', contentType: undefined },
  { title: 'status code and body with content type', host: 'api5', status: 451, body: '<html><body><h1>Service is down due to content infringement</h1></body></html>', contentType: 'text/html' },
  { title: 'a JSON body is sent as written', host: 'api6', status: 503, body: '{"code": 1, "message": "Service unavailable"}' },
  { title: 'trigger set but not present: proxied', host: 'api10', status: 200 },
  { title: 'trigger as a header', host: 'api10', headers: { 'Gimme-An-Echo': 'anything will do' }, status: 404, body: '{"message":"Not found"}' },
  { title: 'trigger as an empty header still triggers (any value)', host: 'api10', headers: { 'gimme-an-echo': '' }, status: 404 },
  { title: 'trigger as a query argument', host: 'api10', path: '/status/200?hello=there&gimme-an-echo=anything%20will%20do', status: 404, body: '{"message":"Not found"}' },
  { title: 'trigger as a query argument without a value', host: 'api10', path: '/status/200?gimme-an-echo', status: 404 },
  { title: 'on a consumer: that consumer is terminated', host: 'members', headers: { apikey: 'kong' }, status: 503, body: '{"message":"Service unavailable"}' },
  { title: 'on a consumer: other consumers pass', host: 'members', headers: { apikey: 'alice-key' }, status: 200 },
];

test('request-termination: Kong\'s access and integration spec cases', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) {
    const hitsBefore = g.upstream.hits;
    const res = await request(g.proxy + (c.path ?? '/status/200'), { headers: { host: `${c.host}.request-termination.test`, connection: 'close', ...c.headers } });
    const text = await res.body.text();
    assert.equal(res.statusCode, c.status, `${c.title}: status (${text})`);
    if (c.status === 200) {
      assert.equal(g.upstream.hits, hitsBefore + 1, `${c.title}: proxied`);
      continue;
    }
    assert.equal(g.upstream.hits, hitsBefore, `${c.title}: the upstream is never called`);
    assert.equal(res.headers.server, SERVER, `${c.title}: Server`);
    if (c.body !== undefined) assert.equal(text, c.body, `${c.title}: body`);
    if ('contentType' in c) assert.equal(res.headers['content-type'], c.contentType, `${c.title}: Content-Type`);
    if ('contentLength' in c) assert.equal(res.headers['content-length'], c.contentLength, `${c.title}: Content-Length`);
  }
});

type Echo = {
  message?: string;
  kong: { node_id: string; worker_pid: number; hostname: string };
  request: { scheme: string; host: string; port: number; headers: Record<string, unknown>; query: Record<string, unknown>; body?: unknown; raw_body?: string; method: string; path: string; uri_captures: { named: Record<string, string>; unnamed: string[] } };
  matched_route: { hosts: string[]; id: string };
  matched_service: { name: string };
};

// 02-access_spec.lua "echo & trigger": the request comes back as Kong saw it.
test('request-termination: echo and trigger', async (t) => {
  const g = await startPluginGateway(t, yml);
  const info = JSON.parse(await (await request(g.admin + '/')).body.text()) as { node_id: string; pids: { workers: number[] } };
  const port = Number(new URL(g.proxy).port);
  const echo = async (host: string, path: string, headers: Record<string, string>, body?: string): Promise<{ status: number; json: Echo }> => {
    const res = await request(g.proxy + path, { method: body === undefined ? 'GET' : 'POST', headers: { host, connection: 'close', ...headers }, ...(body === undefined ? {} : { body }) });
    const text = await res.body.text();
    return { status: res.statusCode, json: JSON.parse(text) as Echo };
  };

  const hits = g.upstream.hits;
  const a = await echo('api9.request-termination.test', '/status/200?hello=there', { 'content-type': 'text/plain' }, 'cool body');
  assert.equal(a.status, 404);
  assert.equal(a.json.message, 'Not found');
  assert.deepEqual(a.json.kong, { node_id: info.node_id, worker_pid: a.json.kong.worker_pid, hostname: a.json.kong.hostname });
  assert.ok(info.pids.workers.includes(a.json.kong.worker_pid), 'worker_pid is a worker of this node');
  assert.equal(a.json.matched_route.hosts[0], 'api9.request-termination.test');
  assert.equal(a.json.matched_service.name, 'echo');
  const { headers, ...rest } = a.json.request;
  assert.deepEqual(rest, {
    scheme: 'http', host: 'api9.request-termination.test', port, method: 'POST', path: '/status/200', query: { hello: 'there' },
    raw_body: 'cool body', uri_captures: { named: { parameter: 'status' }, unnamed: ['status'] },
  }, 'a text body is raw only (get_body knows no text/plain)');
  assert.equal(headers['content-length'], '9');
  assert.equal(headers.host, 'api9.request-termination.test');

  const json = await echo('api9.request-termination.test', '/status/200', { 'content-type': 'application/json' }, '{"a":1,"b":[true]}');
  assert.deepEqual(json.json.request.body, { a: 1, b: [true] }, 'a JSON body parsed');
  const form = await echo('api9.request-termination.test', '/status/200', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1&a=2&b');
  assert.deepEqual(form.json.request.body, { a: ['1', '2'], b: true }, 'a form body parsed');

  const none = await request(g.proxy + '/status/200', { headers: { host: 'api12.request-termination.test', connection: 'close' } });
  await none.body.text();
  assert.equal(none.statusCode, 200, 'the trigger is absent: proxied');
  const byHeader = await echo('api12.request-termination.test', '/status/200?hello=there', { 'gimme-an-echo': 'anything will do' });
  assert.equal(byHeader.status, 404);
  assert.equal(byHeader.json.request.headers['gimme-an-echo'], 'anything will do');
  assert.deepEqual(byHeader.json.request.uri_captures, { named: {}, unnamed: [] });
  assert.equal(byHeader.json.request.raw_body, '', 'no body: an empty raw body');
  const byQuery = await echo('api12.request-termination.test', '/status/200?hello=there&gimme-an-echo=anything%20will%20do', {});
  assert.deepEqual(byQuery.json.request.query, { hello: 'there', 'gimme-an-echo': 'anything will do' });
  assert.equal(g.upstream.hits, hits + 1, 'only the untriggered request reached the upstream');
});

test('request-termination: schema errors in Kong\'s words', () => {
  const parse = (config: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: request-termination, config: ${config} }]\n`);
  assert.deepEqual(parse('{}').plugins[0]!.config, { status_code: 503, message: null, content_type: null, body: null, echo: false, trigger: null });
  const fields = (config: string): unknown => {
    try {
      parse(config);
    } catch (e) {
      if (e instanceof GatewayError) return (e.toBody().fields as { plugins: [{ config: unknown }] }).plugins[0].config;
      throw e;
    }
    return assert.fail(`expected ${config} to be refused`);
  };
  assert.deepEqual(fields('{ status_code: abcd }'), { status_code: 'expected an integer' });
  assert.deepEqual(fields('{ status_code: null }'), { status_code: 'required field missing' });
  assert.deepEqual(fields('{ status_code: 99 }'), { status_code: 'value should be between 100 and 599' });
  assert.deepEqual(fields('{ status_code: 600 }'), { status_code: 'value should be between 100 and 599' });
  assert.equal(fields('{ message: error, body: test }'), 'message cannot be used with content_type or body');
  assert.equal(fields('{ message: error, content_type: text/html, body: test }'), 'message cannot be used with content_type or body');
  assert.equal(fields('{ message: error, content_type: text/html }'), 'message cannot be used with content_type or body');
  assert.equal(fields('{ content_type: text/html }'), 'content_type requires a body');
  assert.deepEqual(fields('{ trigger: "bad name" }'), { trigger: "bad header name 'bad name', allowed characters are A-Z, a-z, 0-9, '_', and '-'" });
  assert.equal(fields('{ echo: true, content_type: text/html, body: "<h1>x</h1>" }'), 'echo cannot be used with content_type and body');
  assert.equal(parse('{ echo: true, trigger: header_name }').plugins[0]!.config.echo, true);
  assert.equal(parse('{ status_code: 404, message: "Not found" }').plugins[0]!.config.message, 'Not found');
  assert.equal(parse('{ content_type: text/html, body: "<h1>x</h1>" }').plugins[0]!.config.content_type, 'text/html');
});
