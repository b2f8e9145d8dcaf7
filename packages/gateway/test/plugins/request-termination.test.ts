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
  // echo needs the whole request body, which the proxy streams: refused by name, not half-done.
  assert.deepEqual(fields('{ echo: true }'), { echo: 'echo is not supported by this gateway yet' });
  assert.equal(parse('{ status_code: 404, message: "Not found" }').plugins[0]!.config.message, 'Not found');
  assert.equal(parse('{ content_type: text/html, body: "<h1>x</h1>" }').plugins[0]!.config.content_type, 'text/html');
});
