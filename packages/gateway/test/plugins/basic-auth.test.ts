// basic-auth against a real two-worker gateway: cases from Kong's
// spec/03-plugins/10-basic-auth/03-access_spec.lua, and the logical AND / OR of two auth
// plugins from its "multiple auth" cases (key-auth + basic-auth, with and without anonymous).
import { test } from 'node:test';
import { basic, checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const BOB = 'b0b00000-0000-4000-8000-000000000001';
const ANON = 'a0000000-0000-4000-8000-000000000002';
const USER123 = 'c0000000-0000-4000-8000-000000000005';

const yml = (upstream: string): string => `_format_version: "3.0"
consumers:
  - id: ${BOB}
    username: bob
    basicauth_credentials:
      - { username: bob, password: kong }
      - { username: user:colon, password: "pass:with:colons" }
      - { username: alice, password: "pass:with:colons" }
  - id: ${USER123}
    username: user123
    custom_id: u-123
    keyauth_credentials: [{ key: Mouse }]
    basicauth_credentials: [{ username: user123, password: password123 }]
  - id: ${ANON}
    username: Anonymous
services:
  - name: echo
    url: ${upstream}
    routes:
      - { name: r1, hosts: [basic-auth1.test], plugins: [{ name: basic-auth }] }
      - { name: r2, hosts: [basic-auth2.test], plugins: [{ name: basic-auth, config: { hide_credentials: true } }] }
      - { name: r3, hosts: [basic-auth3.test], plugins: [{ name: basic-auth, config: { anonymous: ${ANON} } }] }
      - { name: r4, hosts: [basic-auth4.test], plugins: [{ name: basic-auth, config: { anonymous: nobody } }] }
      - { name: r5, hosts: [basic-auth5.test], plugins: [{ name: basic-auth, config: { realm: test-realm } }] }
      - name: and
        hosts: [logical-and.test]
        plugins: [{ name: basic-auth }, { name: key-auth }]
      - name: or
        hosts: [logical-or.test]
        plugins: [{ name: basic-auth, config: { anonymous: ${ANON} } }, { name: key-auth, config: { anonymous: ${ANON} } }]
`;

const on = (h: string, more: Record<string, string> = {}) => ({ Host: h, ...more });
const CHALLENGE = { 'WWW-Authenticate': 'Basic realm="service"' };
const unauthorized = (title: string, headers: Record<string, string>): PluginCase => ({ title, path: '/', headers, status: 401, message: 'Unauthorized', responseHeaders: CHALLENGE });

const CASES: PluginCase[] = [
  unauthorized('missing credentials', on('basic-auth1.test')),
  { title: 'configured realm', path: '/', headers: on('basic-auth5.test'), status: 401, responseHeaders: { 'WWW-Authenticate': 'Basic realm="test-realm"' } },
  unauthorized('not Basic', on('basic-auth1.test', { Authorization: 'foobar' })),
  unauthorized('not Basic, in Proxy-Authorization', on('basic-auth1.test', { 'Proxy-Authorization': 'foobar' })),
  unauthorized('wrong password', on('basic-auth1.test', { Authorization: basic('bob', 'nope') })),
  unauthorized('unknown username', on('basic-auth1.test', { Authorization: basic('alice', 'kong') })),
  unauthorized('invalid base64', on('basic-auth1.test', { Authorization: 'Basic !!!' })),
  unauthorized('no colon in the decoded value', on('basic-auth1.test', { Authorization: `Basic ${Buffer.from('bob').toString('base64')}` })),
  {
    title: 'valid credentials: consumer headers upstream', path: '/request', headers: on('basic-auth1.test', { Authorization: basic('bob', 'kong') }), status: 200,
    upstreamHeaders: { 'X-Consumer-ID': BOB, 'X-Consumer-Username': 'bob', 'X-Credential-Identifier': 'bob', 'X-Anonymous-Consumer': undefined, authorization: basic('bob', 'kong') },
  },
  { title: 'lower-case "basic"', path: '/', headers: on('basic-auth1.test', { Authorization: `basic ${Buffer.from('bob:kong').toString('base64')}` }), status: 200 },
  { title: 'base64 without padding', path: '/', headers: on('basic-auth1.test', { Authorization: `Basic ${Buffer.from('user123:password123').toString('base64').replace(/=+$/, '')}` }), status: 200 },
  // The value splits at its first colon: a password may hold colons, a username cannot.
  { title: 'password with colons', path: '/', headers: on('basic-auth1.test', { Authorization: basic('alice', 'pass:with:colons') }), status: 200, upstreamHeaders: { 'X-Credential-Identifier': 'alice' } },
  { title: 'username with a colon never matches', path: '/', headers: on('basic-auth1.test', { Authorization: basic('user:colon', 'pass:with:colons') }), status: 401 },
  { title: 'custom_id upstream', path: '/', headers: on('basic-auth1.test', { Authorization: basic('user123', 'password123') }), status: 200, upstreamHeaders: { 'X-Consumer-Custom-ID': 'u-123' } },
  { title: 'hide_credentials strips Authorization', path: '/', headers: on('basic-auth2.test', { Authorization: basic('bob', 'kong') }), status: 200, upstreamHeaders: { authorization: undefined, 'X-Consumer-Username': 'bob' } },
  // config.anonymous
  { title: 'right credentials and anonymous', path: '/', headers: on('basic-auth3.test', { Authorization: basic('bob', 'kong') }), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'bob', 'X-Anonymous-Consumer': undefined } },
  { title: 'wrong credentials and anonymous', path: '/', headers: on('basic-auth3.test', { Authorization: basic('bob', 'nope') }), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'Anonymous', 'X-Anonymous-Consumer': 'true', 'X-Credential-Identifier': undefined } },
  { title: 'anonymous that does not exist', path: '/', headers: on('basic-auth4.test'), status: 500, message: "anonymous consumer nobody is configured but doesn't exist" },
  // Logical AND: every auth plugin must pass (key-auth 1250 runs before basic-auth 1100).
  { title: 'AND: both credentials', path: '/?apikey=Mouse', headers: on('logical-and.test', { Authorization: basic('user123', 'password123') }), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'user123', 'X-Credential-Identifier': 'user123' } },
  { title: 'AND: only the key', path: '/?apikey=Mouse', headers: on('logical-and.test'), status: 401, message: 'Unauthorized' },
  { title: 'AND: only basic', path: '/', headers: on('logical-and.test', { Authorization: basic('user123', 'password123') }), status: 401, message: 'No API key found in request' },
  { title: 'AND: none', path: '/', headers: on('logical-and.test'), status: 401 },
  // Logical OR: anonymous on both; the first plugin that authenticates wins.
  { title: 'OR: both credentials', path: '/?apikey=Mouse', headers: on('logical-or.test', { Authorization: basic('bob', 'kong') }), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'user123', 'X-Anonymous-Consumer': undefined } },
  { title: 'OR: only the key', path: '/?apikey=Mouse', headers: on('logical-or.test'), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'user123', 'X-Anonymous-Consumer': undefined } },
  { title: 'OR: only basic', path: '/', headers: on('logical-or.test', { Authorization: basic('bob', 'kong') }), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'bob', 'X-Credential-Identifier': 'bob', 'X-Anonymous-Consumer': undefined } },
  { title: 'OR: none is the anonymous consumer', path: '/', headers: on('logical-or.test'), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'Anonymous', 'X-Anonymous-Consumer': 'true' } },
];

test('basic-auth: Kong access spec cases and auth plugins in AND / OR, on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
});
