// hmac-auth in kong.yml: the plugin's schema (spec/03-plugins/19-hmac-auth/01-schema_spec.lua),
// hmacauth_credentials nested and top-level (hmac-auth/daos.lua), and the HTTP dates it reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from '../../declarative/parse-declarative-config.ts';
import { deriveEntityId } from '../../declarative/uuid-v5.ts';
import { GatewayError } from '../../errors.ts';
import { parseHttpDate } from './parse-http-date.ts';

const V3 = '_format_version: "3.0"\n';
const parse = (yaml: string) => parseDeclarativeConfig(V3 + yaml, { now: 1_700_000_000, randomId: () => '00000000-0000-4000-8000-000000000001' });

function fields(yaml: string): unknown {
  try {
    parse(yaml);
  } catch (e) {
    if (e instanceof GatewayError) return e.toBody().fields;
    throw e;
  }
  return assert.fail('expected the configuration to be rejected');
}

test('hmac-auth defaults are Kong\'s', () => {
  assert.deepEqual(parse('plugins: [{ name: hmac-auth }]\n').plugins[0]?.config, {
    hide_credentials: false, clock_skew: 300, anonymous: null, validate_request_body: false, enforce_headers: [],
    algorithms: ['hmac-sha1', 'hmac-sha256', 'hmac-sha384', 'hmac-sha512'], realm: null,
  });
});

test('hmacauth_credentials nested and top-level: ids from the username (Kong cache key), secret generated when absent', () => {
  const s = parse(`consumers: [{ username: bob, hmacauth_credentials: [{ username: bob-hmac, secret: s }] }]
hmacauth_credentials: [{ consumer: bob, username: other }]
`);
  const bob = s.consumers[0]!.id;
  assert.deepEqual(s.hmacauth_credentials.map((h) => [h.id, h.username, h.consumer.id]), [
    [deriveEntityId('hmacauth_credentials', 'hmacauth_credentials:*:bob-hmac'), 'bob-hmac', bob],
    [deriveEntityId('hmacauth_credentials', 'hmacauth_credentials:*:other'), 'other', bob],
  ]);
  assert.equal(s.hmacauth_credentials[0]?.secret, 's');
  assert.match(s.hmacauth_credentials[1]!.secret, /^[0-9a-f]{32}$/);
});

const ERRORS: [string, string, unknown][] = [
  ['clock_skew must be positive', 'plugins: [{ name: hmac-auth, config: { clock_skew: -10 } }]\n', { plugins: [{ config: { clock_skew: 'value must be greater than 0' } }] }],
  ['unknown algorithm', 'plugins: [{ name: hmac-auth, config: { algorithms: [sha1024] } }]\n',
    { plugins: [{ config: { algorithms: ['expected one of: hmac-sha1, hmac-sha256, hmac-sha384, hmac-sha512'] } }] }],
  ['validate_request_body takes a boolean', 'plugins: [{ name: hmac-auth, config: { validate_request_body: 1 } }]\n',
    { plugins: [{ config: { validate_request_body: 'expected a boolean' } }] }],
  ['a credential needs a username', 'consumers: [{ username: c, hmacauth_credentials: [{ secret: s }] }]\n',
    { consumers: [{ hmacauth_credentials: [{ username: 'required field missing' }] }] }],
  ['duplicate username', 'consumers: [{ username: c, hmacauth_credentials: [{ username: u }, { username: u }] }]\n',
    { consumers: [{ hmacauth_credentials: [null, "uniqueness violation: 'hmacauth_credentials' entity with username set to 'u' already declared"] }] }],
];

for (const [title, yaml, expected] of ERRORS) {
  test(`error: ${title}`, () => assert.deepEqual(fields(yaml), expected));
}

test('HTTP dates: the three forms of RFC 9110, nothing else', () => {
  const t = Date.UTC(1994, 10, 6, 8, 49, 37) / 1000;
  assert.equal(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), t);
  assert.equal(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), t);
  assert.equal(parseHttpDate('Sun Nov  6 08:49:37 1994'), t);
  assert.equal(parseHttpDate('1994-11-06T08:49:37Z'), undefined);
  assert.equal(parseHttpDate('wrong date'), undefined);
  assert.equal(parseHttpDate('Sun, 06 Foo 1994 08:49:37 GMT'), undefined);
});
