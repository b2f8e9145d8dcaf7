// key-auth against a real two-worker gateway: cases from Kong's
// spec/03-plugins/09-key-auth/02-access_spec.lua (statuses, messages, WWW-Authenticate, upstream
// headers, hide_credentials, anonymous), one route per configuration as Kong's spec has.
import { test } from 'node:test';
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
    keyauth_credentials: [{ id: ${CRED}, key: kong }]
  - id: ${ANON}
    username: no-body
services:
  - name: echo
    url: ${upstream}
    routes:${route('key-auth1.test')}${route('key-auth2.test', '{ hide_credentials: true }')}${route('key-auth3.test', `{ anonymous: ${ANON} }`)}${route('key-auth4.test', `{ anonymous: ${GHOST} }`)}${route('key-auth10.test', '{ anonymous: no-body }')}${route('preflight.test', '{ run_on_preflight: false }')}${route('realm.test', '{ realm: test-realm }')}${route('names.test', '{ key_names: [token, apikey] }')}${route('header-only.test', '{ key_in_query: false }')}${route('query-only.test', '{ key_in_header: false }')}
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
  { title: 'duplicated key in querystring', path: '/?apikey=kong&apikey=kong', headers: host('key-auth1.test'), status: 401, message: 'Duplicate API key found', responseHeaders: KEY },
  { title: 'duplicated key header', path: '/', headers: host('key-auth1.test', { apikey: ['kong', 'kong'] }), status: 401, message: 'Duplicate API key found' },
  { title: 'valid key in a header', path: '/', headers: host('key-auth1.test', { apikey: 'kong' }), status: 200, upstreamHeaders: { apikey: 'kong', 'X-Consumer-Username': 'bob' } },
  { title: 'header names are case-insensitive', path: '/', headers: host('key-auth1.test', { APIKEY: 'kong' }), status: 200 },
  { title: 'invalid key in a header', path: '/', headers: host('key-auth1.test', { apikey: '123' }), status: 401, message: 'Unauthorized' },
  { title: 'the first of key_names found wins', path: '/?token=kong&apikey=123', headers: host('names.test'), status: 200 },
  { title: 'key_in_query false ignores the query', path: '/?apikey=kong', headers: host('header-only.test'), status: 401, message: 'No API key found in request' },
  { title: 'key_in_query false reads headers', path: '/', headers: host('header-only.test', { apikey: 'kong' }), status: 200 },
  { title: 'key_in_header false ignores headers', path: '/', headers: host('query-only.test', { apikey: 'kong' }), status: 401, message: 'No API key found in request' },
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

test('key-auth: Kong access spec cases on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
  // Kong-generated answers never reach the upstream.
  const reached = g.upstream.hits;
  await checkCase(g, CASES[0]!);
  assert.equal(g.upstream.hits, reached);
});
