// key-auth against a real two-worker gateway: cases from Kong's
// spec/03-plugins/09-key-auth/02-access_spec.lua (statuses, messages, WWW-Authenticate, upstream
// headers, hide_credentials, anonymous), one route per configuration as Kong's spec has.
import { test } from 'node:test';
import { Readable } from 'node:stream';
import assert from 'node:assert/strict';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const BOB = 'b0b00000-0000-4000-8000-000000000001';
const ANON = 'a0000000-0000-4000-8000-000000000002';
const CRED = 'c0000000-0000-4000-8000-000000000003';
const GHOST = 'dead0000-0000-4000-8000-000000000004';

const route = (host: string, config = '{}'): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: key-auth, config: ${config} }]`;

const yml = (upstream: string): string => `_format_version: "3.0"
consumers:
  - id: ${BOB}
    username: bob
    keyauth_credentials:
      - { id: ${CRED}, key: kong }
      # db_export's ttl: the second the credential expires (Unix seconds); null when it does not.
      - { key: expired-key, ttl: 1500000000 }
      - { key: dated-key, ttl: 4102444800 }
      - { key: undated-key, ttl: null }
  - id: ${ANON}
    username: no-body
services:
  - name: echo
    url: ${upstream}
    routes:${route('key-auth1.test')}${route('key-auth2.test', '{ hide_credentials: true }')}${route('key-auth3.test', `{ anonymous: ${ANON} }`)}${route('key-auth4.test', `{ anonymous: ${GHOST} }`)}${route('key-auth10.test', '{ anonymous: no-body }')}${route('preflight.test', '{ run_on_preflight: false }')}${route('realm.test', '{ realm: test-realm }')}${route('names.test', '{ key_names: [token, apikey] }')}${route('header-only.test', '{ key_in_query: false }')}${route('query-only.test', '{ key_in_header: false }')}${route('key-auth5.test', '{ key_in_body: true }')}${route('key-auth6.test', '{ key_in_body: true, hide_credentials: true }')}${route('underscore.test', '{ key_names: [api_key], hide_credentials: true }')}
`;

const host = (h: string, more: Record<string, string | string[]> = {}) => ({ Host: h, ...more });
const KEY = { 'WWW-Authenticate': 'Key' };

const CASES: PluginCase[] = [
  { title: 'missing credentials', path: '/status/200', headers: host('key-auth1.test'), status: 401, message: 'No API key found in request', responseHeaders: KEY },
  { title: 'OPTIONS with run_on_preflight (default)', path: '/', method: 'OPTIONS', headers: host('key-auth1.test'), status: 401, message: 'No API key found in request' },
  { title: 'OPTIONS without run_on_preflight', path: '/', method: 'OPTIONS', headers: host('preflight.test'), status: 200 },
  { title: 'empty key header', path: '/', headers: host('key-auth1.test', { apikey: '' }), status: 401, message: 'No API key found in request' },
  { title: 'empty key querystring', path: '/?apikey=', headers: host('key-auth1.test'), status: 401, message: 'No API key found in request' },
  { title: 'a query argument without a value is no key', path: '/?apikey', headers: host('key-auth1.test'), status: 401, message: 'No API key found in request' },
  { title: 'realm in WWW-Authenticate', path: '/', headers: host('realm.test'), status: 401, responseHeaders: { 'WWW-Authenticate': 'Key realm="test-realm"' } },
  {
    title: 'valid key in querystring: consumer headers upstream', path: '/request?apikey=kong', headers: host('key-auth1.test'), status: 200,
    upstreamUrl: '/request?apikey=kong',
    upstreamHeaders: { 'X-Consumer-ID': BOB, 'X-Consumer-Username': 'bob', 'X-Credential-Identifier': CRED, 'X-Consumer-Custom-ID': undefined, 'X-Anonymous-Consumer': undefined },
  },
  { title: 'invalid key', path: '/?apikey=123', headers: host('key-auth1.test'), status: 401, message: 'Unauthorized', responseHeaders: KEY },
  // DB-less Kong does not find a credential whose ttl has come (kong/db/strategies/off/init.lua).
  { title: 'a key whose ttl has passed', path: '/?apikey=expired-key', headers: host('key-auth1.test'), status: 401, message: 'Unauthorized', responseHeaders: KEY },
  { title: 'a key whose ttl is ahead', path: '/?apikey=dated-key', headers: host('key-auth1.test'), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'bob' } },
  { title: 'a key with a null ttl', path: '/?apikey=undated-key', headers: host('key-auth1.test'), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'bob' } },
  { title: 'duplicated key in querystring', path: '/?apikey=kong&apikey=kong', headers: host('key-auth1.test'), status: 401, message: 'Duplicate API key found', responseHeaders: KEY },
  { title: 'duplicated key header', path: '/', headers: host('key-auth1.test', { apikey: ['kong', 'kong'] }), status: 401, message: 'Duplicate API key found' },
  { title: 'valid key in a header', path: '/', headers: host('key-auth1.test', { apikey: 'kong' }), status: 200, upstreamHeaders: { apikey: 'kong', 'X-Consumer-Username': 'bob' } },
  { title: 'header names are case-insensitive', path: '/', headers: host('key-auth1.test', { APIKEY: 'kong' }), status: 200 },
  { title: 'invalid key in a header', path: '/', headers: host('key-auth1.test', { apikey: '123' }), status: 401, message: 'Unauthorized' },
  { title: 'the first of key_names found wins', path: '/?token=kong&apikey=123', headers: host('names.test'), status: 200 },
  { title: 'key_in_query false ignores the query', path: '/?apikey=kong', headers: host('header-only.test'), status: 401, message: 'No API key found in request' },
  { title: 'key_in_query false reads headers', path: '/', headers: host('header-only.test', { apikey: 'kong' }), status: 200 },
  { title: 'key_in_header false ignores headers', path: '/', headers: host('query-only.test', { apikey: 'kong' }), status: 401, message: 'No API key found in request' },
  // A key name with `_` also finds its `-` spelling (nginx's header lookup): hide_credentials
  // clears the header the key was found in, whichever spelling it came under.
  { title: 'hide_credentials strips an api_key header', path: '/', headers: host('underscore.test', { api_key: 'kong' }), status: 200, upstreamHeaders: { api_key: undefined, 'X-Consumer-Username': 'bob' } },
  { title: 'hide_credentials strips the key found in an api-key header', path: '/', headers: host('underscore.test', { 'api-key': 'kong' }), status: 200, upstreamHeaders: { 'api-key': undefined, 'X-Consumer-Username': 'bob' } },
  { title: 'hide_credentials strips an api_key query argument', path: '/request?api_key=kong&a=1', headers: host('underscore.test'), status: 200, upstreamUrl: '/request?a=1' },
  // The client's own X-Consumer-* never reach the upstream from an authenticated route.
  {
    title: 'spoofed consumer headers are replaced', path: '/?apikey=kong',
    headers: host('key-auth1.test', { 'X-Consumer-Username': 'mallory', 'X-Consumer-Custom-ID': 'm', 'X-Anonymous-Consumer': 'true' }), status: 200,
    upstreamHeaders: { 'X-Consumer-Username': 'bob', 'X-Consumer-Custom-ID': undefined, 'X-Anonymous-Consumer': undefined },
  },
  // config.hide_credentials
  { title: 'hide_credentials false sends the header key upstream', path: '/request', headers: host('key-auth1.test', { apikey: 'kong' }), status: 200, upstreamHeaders: { apikey: 'kong' } },
  { title: 'hide_credentials true strips the header key', path: '/request', headers: host('key-auth2.test', { apikey: 'kong' }), status: 200, upstreamHeaders: { apikey: undefined } },
  { title: 'hide_credentials false keeps the query as sent', path: '/request?c=value1&b=value2&apikey=kong&a=value3', headers: host('key-auth1.test'), status: 200, upstreamUrl: '/request?c=value1&b=value2&apikey=kong&a=value3' },
  { title: 'hide_credentials removes the key, keeping the order', path: '/request?c=value1&b=value2&apikey=kong&a=value3', headers: host('key-auth2.test'), status: 200, upstreamUrl: '/request?c=value1&b=value2&a=value3' },
  { title: 'hide_credentials on an encoded query', path: '/request?c=valu%651&b=value2&api%6B%65%79=kong&a=valu%653', headers: host('key-auth2.test'), status: 200, upstreamUrl: '/request?c=value1&b=value2&a=value3' },
  // config.anonymous
  {
    title: 'right credentials and anonymous', path: '/request?apikey=kong', headers: host('key-auth3.test'), status: 200,
    upstreamHeaders: { 'X-Consumer-Username': 'bob', 'X-Credential-Identifier': CRED, 'X-Anonymous-Consumer': undefined },
  },
  {
    title: 'wrong credentials and anonymous', path: '/request', headers: host('key-auth3.test'), status: 200,
    upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Credential-Identifier': undefined, 'X-Consumer-Username': 'no-body', 'X-Consumer-ID': ANON },
  },
  { title: 'username as anonymous', path: '/request?apikey=nope', headers: host('key-auth10.test'), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-Username': 'no-body' } },
  { title: 'anonymous consumer that does not exist', path: '/request', headers: host('key-auth4.test'), status: 500, message: `anonymous consumer ${GHOST} is configured but doesn't exist` },
];

// spec 09-key-auth "key in request body" and "config.hide_credentials", for each MIME type.
const FORM = 'application/x-www-form-urlencoded';
const JSON_CT = 'application/json';
const MULTI = 'multipart/form-data; boundary=xYzZY';
const multipart = (fields: readonly (readonly [string, string])[]): string =>
  fields.map(([k, v]) => `--xYzZY\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('') + '--xYzZY--\r\n';
const encodings: readonly (readonly [string, (fields: readonly (readonly [string, string])[]) => string])[] = [
  [FORM, (f) => f.map(([k, v]) => `${k}=${v}`).join('&')],
  [JSON_CT, (f) => JSON.stringify(Object.fromEntries(f))],
  [MULTI, multipart],
];
const BODY_CASES: PluginCase[] = encodings.flatMap(([type, encode]): PluginCase[] => [
  {
    title: `${type}: valid key in the body`, path: '/request', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': type }),
    requestBody: encode([['apikey', 'kong'], ['foo', 'bar']]), status: 200,
    upstreamHeaders: { 'X-Consumer-Username': 'bob', 'X-Credential-Identifier': CRED }, upstreamBody: encode([['apikey', 'kong'], ['foo', 'bar']]),
  },
  { title: `${type}: valid key in the query, other body`, path: '/request?apikey=kong', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': type }), requestBody: encode([['non_apikey', 'kong']]), status: 200 },
  { title: `${type}: valid key in a header, other body`, path: '/request', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': type, apikey: 'kong' }), requestBody: encode([['non_apikey', 'kong']]), status: 200 },
  { title: `${type}: invalid key in the body`, path: '/status/200', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': type }), requestBody: encode([['apikey', '123']]), status: 401, message: 'Unauthorized', responseHeaders: KEY },
  {
    title: `${type}: hide_credentials removes the key from the body, keeps the MIME type`, path: '/request', method: 'POST',
    headers: host('key-auth6.test', { 'Content-Type': type }), requestBody: encode([['apikey', 'kong'], ['foo', 'bar']]), status: 200,
    upstreamHeaders: { 'content-type': type, 'X-Consumer-Username': 'bob' }, upstreamBody: encode([['foo', 'bar']]),
  },
]);
const BODY_EDGE_CASES: PluginCase[] = [
  { title: 'JSON: a duplicated key', path: '/status/200', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': JSON_CT }), requestBody: '{"apikey":["kong","kong"]}', status: 401, message: 'Duplicate API key found', responseHeaders: KEY },
  { title: 'form: a duplicated key', path: '/status/200', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': FORM }), requestBody: 'apikey=kong&apikey=kong', status: 401, message: 'Duplicate API key found' },
  { title: 'form: apikey[] is no api key', path: '/status/200', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': FORM }), requestBody: 'apikey[]=kong&apikey[]=kong', status: 401, message: 'No API key found in request' },
  { title: 'form: apikey[1] is no api key', path: '/status/200', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': FORM }), requestBody: 'apikey[1]=kong&apikey[1]=kong', status: 401, message: 'No API key found in request' },
  { title: 'an unsupported content type', path: '/status/200', method: 'POST', headers: host('key-auth6.test', { 'Content-Type': 'text/plain' }), requestBody: 'foobar', status: 401, message: 'No API key found in request', responseHeaders: KEY },
  { title: 'a JSON key that is no string is no key', path: '/status/200', method: 'POST', headers: host('key-auth5.test', { 'Content-Type': JSON_CT }), requestBody: '{"apikey":123}', status: 401, message: 'No API key found in request' },
  { title: 'no body, no content type', path: '/status/200', headers: host('key-auth5.test'), status: 401, message: 'No API key found in request' },
  // key_in_body with hide_credentials writes the body back even when the key came in a header:
  // form arguments sorted, as kong.service.request.set_body does.
  {
    title: 'hide_credentials: a header key still rewrites the form body', path: '/request', method: 'POST',
    headers: host('key-auth6.test', { 'Content-Type': FORM, apikey: 'kong' }), requestBody: 'b=2&apikey=x&a=1', status: 200,
    upstreamHeaders: { apikey: undefined }, upstreamBody: 'a=1&b=2',
  },
  {
    title: 'hide_credentials: an unparsable JSON body goes upstream as it came', path: '/request', method: 'POST',
    headers: host('key-auth6.test', { 'Content-Type': JSON_CT, apikey: 'kong' }), requestBody: '{not json', status: 200, upstreamBody: '{not json',
  },
];

test('key-auth: Kong access spec cases on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
  // Kong-generated answers never reach the upstream.
  const reached = g.upstream.hits;
  await checkCase(g, CASES[0]!);
  assert.equal(g.upstream.hits, reached);
  for (const c of [...BODY_CASES, ...BODY_EDGE_CASES]) await checkCase(g, c);
  // A chunked body is read whole too, and goes upstream with its length.
  const chunked = await g.call('/request', { method: 'POST', headers: host('key-auth6.test', { 'Content-Type': FORM }), body: Readable.from(['foo=bar&api', 'key=kong'].map((c) => Buffer.from(c))) });
  assert.equal(chunked.status, 200);
  assert.equal(chunked.json.body, 'foo=bar');
  assert.equal(chunked.json.headers?.['content-length'], '7');
  assert.equal(chunked.json.headers?.['transfer-encoding'], undefined);
  // A body past the proxy's 8 MiB bound is not read for a key (Kong: it does not fit the body
  // buffer): no key found, and nothing reaches the upstream.
  const before = g.upstream.hits;
  const huge = await g.call('/request', { method: 'POST', headers: host('key-auth5.test', { 'Content-Type': FORM }), body: Buffer.concat([Buffer.from('apikey=kong&pad='), Buffer.alloc(9 * 1024 * 1024, 97)]) });
  assert.equal(huge.status, 401);
  assert.equal(huge.json.message, 'No API key found in request');
  assert.equal(g.upstream.hits, before);
  // A body of a type get_body does not read is never held: it streams upstream untouched, even
  // with hide_credentials and past the bound.
  const big = Buffer.alloc(9 * 1024 * 1024, 98);
  const streamed = await g.call('/request', { method: 'POST', headers: host('key-auth6.test', { 'Content-Type': 'application/octet-stream', apikey: 'kong' }), body: big });
  assert.equal(streamed.status, 200);
  assert.equal(streamed.json.body?.length, big.length);
  assert.equal(streamed.json.headers?.apikey, undefined);
});
