// cors against a real two-worker gateway: cases from Kong's spec/03-plugins/13-cors/
// 01-access_spec.lua (preflight answers, headers on proxied responses and on the gateway's own
// errors, origins flat and regex, credentials, private network, preflight_continue).
import { test } from 'node:test';
import { refusedPort } from '../proxy/proxy.fixture.ts';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const DEFAULT_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS,TRACE,CONNECT';
const route = (host: string, config: string, more = ''): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: cors, config: ${config} }${more}]`;

const OPTIONS_2 = '{ origins: [example.test], methods: [GET], headers: [origin, type, accepts], exposed_headers: [x-auth-token], max_age: 23, credentials: true }';
const yml = (dead: number) => (upstream: string): string => `_format_version: "3.0"
consumers: [{ username: bob, keyauth_credentials: [{ key: kong }] }]
services:
  - name: echo
    url: ${upstream}
    routes:${route('cors1.test', '{}')}${route('cors2.test', OPTIONS_2)}${route('cors3.test', '{ origins: [example.test], preflight_continue: true }')}${route('cors5.test', "{ origins: ['*'], credentials: true }")}${route('cors6.test', '{ origins: [example.test, example.org] }')}${route('cors-empty-origins.test', '{ origins: [] }')}${route('cors9.test', String.raw`{ origins: ['.*\.?example(?:-foo)?.test'] }`)}${route('cors10.test', "{ origins: ['http://my-site.test', 'http://my-other-site.test'] }")}${route('cors11.test', "{ origins: ['http://my-site.test', 'https://my-other-site.test:9000'] }")}${route('cors13.test', "{ private_network: true, origins: ['allowed-domain.test'] }")}${route('cors14.test', "{ origins: [foo.bar, '*'] }")}${route('cors15.test', '{ allow_origin_absent: false, origins: [foo.bar], exposed_headers: [x-auth-token], credentials: true }')}${route('cors-auth.test', '{ origins: [example.test], exposed_headers: [x-auth-token] }', ', { name: key-auth }')}
  - name: dead
    url: http://127.0.0.1:${dead}
    routes:${route('cors-dead.test', '{ origins: [example.test], exposed_headers: [x-auth-token] }')}
`;

const preflight = (host: string, origin: string, more: Record<string, string> = {}) =>
  ({ Host: host, Origin: origin, 'Access-Control-Request-Method': 'GET', ...more });
const NONE = { 'Access-Control-Allow-Headers': undefined, 'Access-Control-Expose-Headers': undefined, 'Access-Control-Allow-Credentials': undefined, 'Access-Control-Max-Age': undefined };

const CASES: PluginCase[] = [
  {
    title: 'preflight: appropriate defaults', path: '/', method: 'OPTIONS', headers: preflight('cors1.test', 'origin1.test'), status: 200, body: {},
    responseHeaders: { 'Content-Length': '0', 'Access-Control-Allow-Methods': DEFAULT_METHODS, 'Access-Control-Allow-Origin': '*', Vary: undefined, ...NONE },
  },
  {
    title: 'preflight: * when origins is empty', path: '/', method: 'OPTIONS', headers: preflight('cors-empty-origins.test', 'empty-origin.test'), status: 200,
    responseHeaders: { 'Content-Length': '0', 'Access-Control-Allow-Origin': '*', Vary: undefined, ...NONE },
  },
  {
    title: 'preflight: origins * with credentials reflects the Origin', path: '/', method: 'OPTIONS', headers: preflight('cors5.test', 'origin5.test'), status: 200,
    responseHeaders: { 'Access-Control-Allow-Origin': 'origin5.test', 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin', 'Access-Control-Allow-Methods': DEFAULT_METHODS },
  },
  {
    title: 'preflight: * among several origins', path: '/', method: 'OPTIONS', headers: preflight('cors14.test', 'http://www.example.net'), status: 200,
    responseHeaders: { 'Access-Control-Allow-Origin': '*', ...NONE },
  },
  {
    title: 'preflight: config options', path: '/', method: 'OPTIONS', headers: preflight('cors2.test', 'origin5.test'), status: 200,
    responseHeaders: {
      'Content-Length': '0', 'Access-Control-Allow-Methods': 'GET', 'Access-Control-Allow-Origin': 'example.test', 'Access-Control-Max-Age': '23',
      'Access-Control-Allow-Credentials': 'true', 'Access-Control-Allow-Headers': 'origin,type,accepts', Vary: 'Origin', 'Access-Control-Expose-Headers': undefined,
    },
  },
  { title: 'preflight_continue: the upstream answers', path: '/anything', method: 'OPTIONS', headers: preflight('cors3.test', 'example.test'), status: 200, upstreamUrl: '/anything' },
  {
    title: 'preflight: request headers echoed', path: '/', method: 'OPTIONS',
    headers: preflight('cors5.test', 'origin5.test', { 'Access-Control-Request-Headers': 'origin,accepts' }), status: 200,
    responseHeaders: { 'Access-Control-Allow-Headers': 'origin,accepts' },
  },
  { title: 'flat origins: legitimate', path: '/', method: 'OPTIONS', headers: preflight('cors10.test', 'http://my-site.test'), status: 200, responseHeaders: { 'Access-Control-Allow-Origin': 'http://my-site.test' } },
  { title: 'flat origins: illegitimate', path: '/', method: 'OPTIONS', headers: preflight('cors10.test', 'http://bad-guys.test'), status: 200, responseHeaders: { 'Access-Control-Allow-Origin': undefined } },
  { title: 'flat origins: tricky', path: '/', method: 'OPTIONS', headers: preflight('cors10.test', 'http://my-site.test.bad-guys.test'), status: 200, responseHeaders: { 'Access-Control-Allow-Origin': undefined } },
  {
    title: 'private network', path: '/', method: 'OPTIONS',
    headers: preflight('cors13.test', 'allowed-domain.test', { 'Access-Control-Request-Private-Network': 'true', 'Access-Control-Request-Method': 'PUT' }), status: 200,
    responseHeaders: { 'Access-Control-Allow-Private-Network': 'true' },
  },
  {
    title: 'GET: appropriate defaults', path: '/', headers: { Host: 'cors1.test' }, status: 200,
    responseHeaders: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': undefined, Vary: undefined, ...NONE },
  },
  {
    title: 'a non-preflight OPTIONS is proxied', path: '/anything', method: 'OPTIONS', headers: { Host: 'cors1.test' }, status: 200, upstreamUrl: '/anything',
    responseHeaders: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': undefined },
  },
  {
    title: 'GET: config options', path: '/', headers: { Host: 'cors2.test' }, status: 200,
    responseHeaders: {
      'Access-Control-Allow-Origin': 'example.test', 'Access-Control-Expose-Headers': 'x-auth-token', 'Access-Control-Allow-Credentials': 'true', Vary: 'Origin',
      'Access-Control-Allow-Methods': undefined, 'Access-Control-Max-Age': undefined,
    },
  },
  {
    title: 'the gateway\'s 502 gets the headers too', path: '/', headers: { Host: 'cors-dead.test' }, status: 502,
    responseHeaders: { 'Access-Control-Allow-Origin': 'example.test', 'Access-Control-Expose-Headers': 'x-auth-token', Vary: 'Origin', 'Access-Control-Allow-Credentials': undefined },
  },
  {
    title: 'a later plugin\'s exit (key-auth 401) gets the headers', path: '/', headers: { Host: 'cors-auth.test' }, status: 401, message: 'No API key found in request',
    responseHeaders: { 'Access-Control-Allow-Origin': 'example.test', 'Access-Control-Expose-Headers': 'x-auth-token', Vary: 'Origin' },
  },
  {
    title: 'preflight is answered before key-auth (PRIORITY 2000 > 1250)', path: '/', method: 'OPTIONS', headers: preflight('cors-auth.test', 'example.test'), status: 200,
    responseHeaders: { 'Access-Control-Allow-Origin': 'example.test' },
  },
  { title: 'several origins: the matching one', path: '/', headers: { Host: 'cors6.test', Origin: 'example.org' }, status: 200, responseHeaders: { 'Access-Control-Allow-Origin': 'example.org', Vary: 'Origin' } },
  { title: 'several origins: no Origin, no ACAO', path: '/', headers: { Host: 'cors6.test' }, status: 200, responseHeaders: { 'Access-Control-Allow-Origin': undefined, Vary: 'Origin' } },
  { title: 'regex origin: match', path: '/', headers: { Host: 'cors9.test', Origin: 'http://www.example.test' }, status: 200, responseHeaders: { 'Access-Control-Allow-Origin': 'http://www.example.test' } },
  { title: 'regex origin: anchored', path: '/', headers: { Host: 'cors9.test', Origin: 'http://www.example.test.bad.test' }, status: 200, responseHeaders: { 'Access-Control-Allow-Origin': undefined } },
  { title: 'scheme and port are compared', path: '/', headers: { Host: 'cors11.test', Origin: 'http://my-other-site.test:9000' }, status: 200, responseHeaders: { 'Access-Control-Allow-Origin': undefined } },
  { title: 'default port is normalised away', path: '/', headers: { Host: 'cors11.test', Origin: 'http://my-site.test:80' }, status: 200, responseHeaders: { 'Access-Control-Allow-Origin': 'http://my-site.test' } },
  {
    title: 'allow_origin_absent false: no headers without Origin', path: '/', headers: { Host: 'cors15.test' }, status: 200,
    responseHeaders: { 'Access-Control-Allow-Origin': undefined, 'Access-Control-Expose-Headers': undefined, 'Access-Control-Allow-Credentials': undefined, Vary: undefined },
  },
  {
    title: 'allow_origin_absent false: headers with an Origin', path: '/', headers: { Host: 'cors15.test', Origin: 'foo.bar' }, status: 200,
    responseHeaders: { 'Access-Control-Allow-Origin': 'foo.bar', 'Access-Control-Expose-Headers': 'x-auth-token', 'Access-Control-Allow-Credentials': 'true' },
  },
];

test('cors: Kong\'s access spec cases', async (t) => {
  const g = await startPluginGateway(t, yml(await refusedPort()));
  for (const c of CASES) await checkCase(g, c);
});
