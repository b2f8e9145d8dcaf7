// hmac-auth against a real two-worker gateway: cases from Kong's
// spec/03-plugins/19-hmac-auth/03-access_spec.lua (date and clock skew, Authorization and
// Proxy-Authorization, the signing string with request-line and @request-target, algorithms,
// enforce_headers, hide_credentials, anonymous, logical AND / OR with key-auth).
import { test } from 'node:test';
import { Readable } from 'node:stream';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { checkCase, startPluginGateway, type PluginCase } from './plugins.fixture.ts';

const BOB = 'b0b00000-0000-4000-8000-000000000001';
const ANON = 'a0000000-0000-4000-8000-000000000002';
const GHOST = 'dead0000-0000-4000-8000-000000000004';
const MICKEY = 'b0000000-0000-4000-8000-000000000011';

const route = (host: string, config: string, more = ''): string => `
      - name: ${host.replace(/\./g, '-')}
        hosts: [${host}]
        plugins: [{ name: hmac-auth, config: ${config} }${more}]`;

const yml = (upstream: string): string => `_format_version: "3.0"
consumers:
  - { id: ${BOB}, username: bob, custom_id: "1234", hmacauth_credentials: [{ username: bob, secret: secret }] }
  - { id: ${ANON}, username: no-body }
  - { id: ${MICKEY}, username: Mickey, keyauth_credentials: [{ key: Mouse }] }
services:
  - name: echo
    url: ${upstream}
    routes:${route('hmacauth.test', '{ clock_skew: 3000, realm: test-realm }')}${route('hmacauth2.test', `{ anonymous: ${ANON}, clock_skew: 3000 }`)}${route('hmacauth3.test', `{ anonymous: ${GHOST}, clock_skew: 3000 }`)}${route('hmacauth5.test', '{ clock_skew: 3000, enforce_headers: [date, request-line] }')}${route('hmacauth6.test', '{ clock_skew: 3000, algorithms: [hmac-sha256] }')}${route('hmacauth7.test', '{ hide_credentials: true }')}${route('hmacauth8.test', '{ anonymous: no-body }')}${route('hmacauth4.test', '{ clock_skew: 3000, validate_request_body: true }')}${route('hmacauth9.test', `{ clock_skew: 3000, validate_request_body: true, anonymous: ${ANON} }`)}${route('logical-and.test', '{}', ', { name: key-auth }')}${route('logical-or.test', `{ anonymous: ${ANON} }`, `, { name: key-auth, config: { anonymous: ${ANON} } }`)}
`;

const DIGEST: Record<string, string> = { 'hmac-sha1': 'sha1', 'hmac-sha256': 'sha256', 'hmac-sha384': 'sha384', 'hmac-sha512': 'sha512' };
const sig = (lines: string[], algorithm = 'hmac-sha1', secret = 'secret'): string => createHmac(DIGEST[algorithm]!, secret).update(lines.join('\n')).digest('base64');
const auth = (headers: string, signature: string, algorithm = 'hmac-sha1', username = 'bob'): string =>
  `hmac username="${username}",algorithm="${algorithm}",headers="${headers}",signature="${signature}"`;

const date = new Date().toUTCString();
const stale = new Date(Date.now() - 3_600_000).toUTCString();
const byDate = auth('date', sig([`date: ${date}`]));
const on = (host: string, headers: Record<string, string> = {}) => ({ Host: host, ...headers });
const REALM = { 'WWW-Authenticate': 'hmac realm="test-realm"' };
const HMAC = { 'WWW-Authenticate': 'hmac' };
const NOT_VALID = 'HMAC signature cannot be verified';
const NOT_SAME = 'HMAC signature does not match';
const NO_DATE = 'HMAC signature cannot be verified, a valid date or x-date header is required for HMAC Authentication';
const BOB_UPSTREAM = { 'X-Consumer-ID': BOB, 'X-Consumer-Username': 'bob', 'X-Consumer-Custom-ID': '1234', 'X-Credential-Identifier': 'bob', 'X-Anonymous-Consumer': undefined };

const CASES: PluginCase[] = [
  { title: 'no credentials', path: '/request', headers: on('hmacauth.test', { date }), status: 401, message: 'Unauthorized', responseHeaders: REALM },
  { title: 'an authorization header that is no hmac', path: '/request', headers: on('hmacauth.test', { date, authorization: 'asd' }), status: 401, message: NOT_VALID, responseHeaders: REALM },
  { title: 'wrong signature', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', 'dXNlcm5hbWU6cGFzc3dvcmQ=') }), status: 401, message: NOT_SAME, responseHeaders: REALM },
  { title: 'signature not base64', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', '!!!') }), status: 401, message: NOT_SAME },
  { title: 'no date header', path: '/request', headers: on('hmacauth.test', { authorization: byDate }), status: 401, message: NO_DATE, responseHeaders: REALM },
  { title: 'a date beyond the clock skew', path: '/request', headers: on('hmacauth7.test', { date: stale, authorization: auth('date', sig([`date: ${stale}`])) }), status: 401, message: NO_DATE, responseHeaders: HMAC },
  { title: 'wrong signature in proxy-authorization', path: '/request', headers: on('hmacauth.test', { date, 'proxy-authorization': 'hmac username', authorization: 'hmac username' }), status: 401, message: NOT_VALID },
  { title: 'only the username', path: '/request', headers: on('hmacauth.test', { date, authorization: 'hmac username="bob"' }), status: 401, message: NOT_VALID },
  { title: 'unknown username', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', sig([`date: ${date}`]), 'hmac-sha1', 'alice') }), status: 401, message: NOT_VALID },
  { title: 'signed with another secret', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', sig([`date: ${date}`], 'hmac-sha1', 'other')) }), status: 401, message: NOT_SAME },
  { title: 'unknown algorithm', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', sig([`date: ${date}`]), 'hmac-sha123') }), status: 401, message: NOT_VALID },
  { title: 'GET signed over the date', path: '/request', headers: on('hmacauth.test', { date, authorization: byDate }), status: 200, upstreamHeaders: { ...BOB_UPSTREAM, authorization: byDate } },
  { title: 'proxy-authorization (never forwarded upstream here)', path: '/request', headers: on('hmacauth.test', { date, 'proxy-authorization': byDate }), status: 200, upstreamHeaders: { 'X-Consumer-Username': 'bob', 'proxy-authorization': undefined } },
  { title: 'valid authorization, unparsable proxy-authorization', path: '/request', method: 'POST', headers: on('hmacauth.test', { date, 'proxy-authorization': 'hmac username', authorization: byDate }), status: 200, upstreamHeaders: { authorization: byDate } },
  { title: 'valid proxy-authorization, invalid authorization', path: '/request', method: 'POST', headers: on('hmacauth.test', { date, 'proxy-authorization': byDate, authorization: 'hello' }), status: 200 },
  {
    title: 'content-md5 and request-line signed (hmac-sha256), consumer headers upstream', path: '/request',
    headers: on('hmacauth.test', { date, 'content-md5': 'md5', authorization: `hmac username="bob",algorithm="hmac-sha256",  headers="date content-md5 request-line",signature="${sig([`date: ${date}`, 'content-md5: md5', 'GET /request HTTP/1.1'], 'hmac-sha256')}"` }),
    status: 200, upstreamHeaders: BOB_UPSTREAM,
  },
  { title: '@request-target', path: '/request?a=1', headers: on('hmacauth.test', { date, authorization: auth('date @request-target', sig([`date: ${date}`, '@request-target: get /request?a=1'])) }), status: 200 },
  { title: 'request-line with an encoded query', path: '/request?b=x%20y&a=1', headers: on('hmacauth.test', { date, authorization: auth('request-line', sig(['GET /request?b=x%20y&a=1 HTTP/1.1'])) }), status: 200 },
  { title: 'request-line signed without the query', path: '/request?a=1', headers: on('hmacauth.test', { date, authorization: auth('request-line', sig(['GET /request HTTP/1.1'])) }), status: 401, message: NOT_SAME },
  { title: 'a header listed but absent is signed as "name:"', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date x-none', sig([`date: ${date}`, 'x-none:'])) }), status: 200 },
  { title: 'spaces between the fields', path: '/request', headers: on('hmacauth.test', { date, authorization: `hmac username="bob",   algorithm="hmac-sha1",  headers="date",   signature="${sig([`date: ${date}`])}"` }), status: 200 },
  { title: 'x-date instead of date', path: '/request', headers: on('hmacauth.test', { 'x-date': date, authorization: auth('x-date', sig([`x-date: ${date}`])) }), status: 200 },
  { title: 'x-date malformed but date correct', path: '/request', headers: on('hmacauth.test', { 'x-date': 'wrong date', date, authorization: byDate }), status: 200 },
  { title: 'both dates malformed', path: '/request', headers: on('hmacauth.test', { 'x-date': 'wrong date', date: 'also wrong', authorization: byDate }), status: 401, message: NO_DATE },
  { title: 'hmac-sha384', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', sig([`date: ${date}`], 'hmac-sha384'), 'hmac-sha384') }), status: 200 },
  { title: 'hmac-sha512', path: '/request', headers: on('hmacauth.test', { date, authorization: auth('date', sig([`date: ${date}`], 'hmac-sha512'), 'hmac-sha512') }), status: 200 },
  // config.algorithms
  { title: 'an algorithm left out of algorithms', path: '/request', headers: on('hmacauth6.test', { date, authorization: byDate }), status: 401, message: NOT_VALID, responseHeaders: HMAC },
  { title: 'an algorithm in algorithms', path: '/request', headers: on('hmacauth6.test', { date, authorization: auth('date', sig([`date: ${date}`], 'hmac-sha256'), 'hmac-sha256') }), status: 200 },
  // config.enforce_headers
  { title: 'an enforced header not signed', path: '/request', headers: on('hmacauth5.test', { date, authorization: byDate }), status: 401, message: NOT_VALID, responseHeaders: HMAC },
  { title: 'every enforced header signed', path: '/request', headers: on('hmacauth5.test', { date, authorization: auth('date request-line', sig([`date: ${date}`, 'GET /request HTTP/1.1'])) }), status: 200 },
  // config.hide_credentials
  { title: 'hide_credentials strips Authorization', path: '/request', headers: on('hmacauth7.test', { date, authorization: byDate }), status: 200, upstreamHeaders: { authorization: undefined, 'X-Consumer-Username': 'bob' } },
  // config.anonymous
  { title: 'valid credentials and anonymous', path: '/request', headers: on('hmacauth2.test', { date, authorization: byDate }), status: 200, upstreamHeaders: BOB_UPSTREAM },
  { title: 'invalid credentials and anonymous', path: '/request', headers: on('hmacauth2.test'), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-ID': ANON, 'X-Credential-Identifier': undefined } },
  { title: 'username as anonymous', path: '/request', headers: on('hmacauth8.test'), status: 200, upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-Username': 'no-body' } },
  { title: 'anonymous consumer that does not exist', path: '/request', headers: on('hmacauth3.test'), status: 500, message: `anonymous consumer ${GHOST} is configured but doesn't exist` },
  // logical AND: key-auth (1250) runs before hmac-auth (1030)
  { title: 'AND: both credentials', path: '/request', headers: on('logical-and.test', { apikey: 'Mouse', date, authorization: byDate }), status: 200, upstreamHeaders: { 'X-Consumer-ID': BOB, 'X-Anonymous-Consumer': undefined } },
  { title: 'AND: only the key', path: '/request', headers: on('logical-and.test', { apikey: 'Mouse' }), status: 401, responseHeaders: HMAC },
  { title: 'AND: only the signature', path: '/request', headers: on('logical-and.test', { date, authorization: byDate }), status: 401, responseHeaders: { 'WWW-Authenticate': 'Key' } },
  { title: 'AND: nothing', path: '/request', headers: on('logical-and.test'), status: 401, responseHeaders: { 'WWW-Authenticate': 'Key' } },
  // logical OR: the first to succeed wins
  { title: 'OR: both credentials', path: '/request', headers: on('logical-or.test', { apikey: 'Mouse', date, authorization: byDate }), status: 200, upstreamHeaders: { 'X-Consumer-ID': MICKEY, 'X-Anonymous-Consumer': undefined } },
  { title: 'OR: only the signature', path: '/request', headers: on('logical-or.test', { date, authorization: byDate }), status: 200, upstreamHeaders: { 'X-Consumer-ID': BOB, 'X-Credential-Identifier': 'bob' } },
  { title: 'OR: nothing', path: '/request', headers: on('logical-or.test'), status: 200, upstreamHeaders: { 'X-Consumer-ID': ANON, 'X-Anonymous-Consumer': 'true' } },
];

// config.validate_request_body (spec 19-hmac-auth "body validation"): Digest is SHA-256=<base64>.
const POST_BODY = '{"a":"apple","b":"ball"}';
const digestOf = (body: string): string => `SHA-256=${createHash('sha256').update(body).digest('base64')}`;
const signedDigest = (digest: string): string => auth('date digest', sig([`date: ${date}`, `digest: ${digest}`]));
const withDigest = signedDigest(digestOf(POST_BODY));
const BODY_CASES: PluginCase[] = [
  { title: 'body validation: a body without a Digest header', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, authorization: byDate }), requestBody: POST_BODY, status: 401, message: NOT_SAME, responseHeaders: HMAC },
  { title: 'body validation: no body, no Digest header', path: '/request', headers: on('hmacauth4.test', { date, authorization: byDate }), status: 200, upstreamHeaders: BOB_UPSTREAM },
  { title: 'body validation: no body, the empty body\'s Digest', path: '/request', headers: on('hmacauth4.test', { date, digest: digestOf(''), authorization: signedDigest(digestOf('')) }), status: 200 },
  {
    title: 'body validation: POST with its Digest signed', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, digest: digestOf(POST_BODY), authorization: withDigest }),
    requestBody: POST_BODY, status: 200, upstreamBody: POST_BODY, upstreamHeaders: { ...BOB_UPSTREAM, 'content-length': String(POST_BODY.length), digest: digestOf(POST_BODY) },
  },
  { title: 'body validation: POST with its Digest, not signed', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, digest: digestOf(POST_BODY), authorization: byDate }), requestBody: POST_BODY, status: 200 },
  { title: 'body validation: the Digest header missing', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, authorization: withDigest }), requestBody: POST_BODY, status: 401, message: NOT_SAME, responseHeaders: HMAC },
  { title: 'body validation: the body tampered with', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, digest: digestOf(POST_BODY), authorization: withDigest }), requestBody: 'abc', status: 401, message: NOT_SAME },
  { title: 'body validation: the Digest tampered with', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, digest: `${digestOf(POST_BODY)}spoofed`, authorization: signedDigest(`${digestOf(POST_BODY)}spoofed`) }), requestBody: POST_BODY, status: 401, message: NOT_SAME },
  { title: 'body validation: the algorithm name is compared as sent', path: '/request', method: 'POST', headers: on('hmacauth4.test', { date, digest: digestOf(POST_BODY).replace('SHA', 'sha'), authorization: byDate }), requestBody: POST_BODY, status: 401, message: NOT_SAME },
  { title: 'body validation: a tampered body with anonymous goes on as anonymous', path: '/request', method: 'POST', headers: on('hmacauth9.test', { date, digest: digestOf(POST_BODY), authorization: withDigest }), requestBody: 'abc', status: 200, upstreamBody: 'abc', upstreamHeaders: { 'X-Anonymous-Consumer': 'true', 'X-Consumer-ID': ANON } },
];

test('hmac-auth: Kong access spec cases on two workers', async (t) => {
  const g = await startPluginGateway(t, yml);
  for (const c of CASES) await checkCase(g, c);
  for (const c of BODY_CASES) await checkCase(g, c);
  // A chunked body is read whole for its digest and forwarded with its length.
  const chunked = await g.call('/request', { method: 'POST', headers: on('hmacauth4.test', { date, digest: digestOf(POST_BODY), authorization: withDigest }), body: Readable.from([POST_BODY.slice(0, 10), POST_BODY.slice(10)].map((c) => Buffer.from(c))) });
  assert.equal(chunked.status, 200);
  assert.equal(chunked.json.body, POST_BODY);
  assert.equal(chunked.json.headers?.['content-length'], String(POST_BODY.length));
});
