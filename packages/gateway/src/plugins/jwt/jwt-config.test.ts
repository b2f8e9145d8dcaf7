// jwt in kong.yml: the plugin's schema (spec/03-plugins/16-jwt/06-schema_spec.lua) and
// jwt_secrets nested or top-level (jwt/daos.lua, 02-api_spec.lua), defaults and errors in Kong's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { parseDeclarativeConfig } from '../../declarative/parse-declarative-config.ts';
import { GatewayError } from '../../errors.ts';

const V3 = '_format_version: "3.0"\n';
let n = 0;
const randomId = (): string => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const parse = (yaml: string) => parseDeclarativeConfig(V3 + yaml, { now: 1_700_000_000, randomId });

function fields(yaml: string): unknown {
  try {
    parse(yaml);
  } catch (e) {
    if (e instanceof GatewayError) return e.toBody().fields;
    throw e;
  }
  return assert.fail('expected the configuration to be rejected');
}

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }) as string;
const indent = (pem: string): string => pem.trimEnd().split('\n').map((l) => `          ${l}`).join('\n');

test('jwt defaults are Kong\'s', () => {
  const s = parse('plugins: [{ name: jwt }]\n');
  assert.deepEqual(s.plugins[0]?.config, {
    uri_param_names: ['jwt'], cookie_names: [], key_claim_name: 'iss', secret_is_base64: false, claims_to_verify: null,
    anonymous: null, run_on_preflight: true, maximum_expiration: 0, header_names: ['authorization'], realm: null,
  });
});

test('jwt_secrets nested and top-level: key and secret generated when absent, HS256 by default, random ids', () => {
  const s = parse(`consumers:
  - username: bob
    jwt_secrets:
      - { key: bob-key, secret: s3cr3t }
      - algorithm: RS256
        rsa_public_key: |
${indent(rsa)}
jwt_secrets:
  - { consumer: bob }
`);
  const [first, second, third] = s.jwt_secrets;
  const bob = s.consumers[0]!.id;
  assert.deepEqual([first?.key, first?.secret, first?.algorithm, first?.rsa_public_key, first?.consumer], ['bob-key', 's3cr3t', 'HS256', null, { id: bob }]);
  assert.equal(second?.algorithm, 'RS256');
  assert.equal(second?.rsa_public_key, rsa);
  assert.match(third!.key, /^[0-9a-f]{32}$/);
  assert.match(third!.secret, /^[0-9a-f]{32}$/);
  assert.deepEqual(third?.consumer, { id: bob });
  assert.equal(new Set(s.jwt_secrets.map((j) => j.id)).size, 3);
});

// [title, yaml, Kong `fields`].
const ERRORS: [string, string, unknown][] = [
  ['maximum_expiration is between 0 and 31536000', 'plugins: [{ name: jwt, config: { maximum_expiration: -1, claims_to_verify: [nbf] } }]\n',
    { plugins: [{ config: { maximum_expiration: 'value should be between 0 and 31536000' } }] }],
  ['maximum_expiration needs exp among the claims to verify', 'plugins: [{ name: jwt, config: { maximum_expiration: 60, claims_to_verify: [nbf] } }]\n',
    { plugins: [{ config: { claims_to_verify: 'expected to contain: exp' }, '@entity': ["failed conditional validation given value of field 'config.maximum_expiration'"] }] }],
  ['claims_to_verify are exp and nbf only', 'plugins: [{ name: jwt, config: { claims_to_verify: [iat] } }]\n',
    { plugins: [{ config: { claims_to_verify: ['expected one of: exp, nbf'] } }] }],
  ['jwt cannot be set on a consumer', 'consumers: [{ username: c, plugins: [{ name: jwt }] }]\n',
    { consumers: [{ plugins: [{ consumer: 'value must be null' }] }] }],
  ['RS256 needs a public key', 'consumers: [{ username: c, jwt_secrets: [{ algorithm: RS256 }] }]\n',
    { consumers: [{ jwt_secrets: [{ rsa_public_key: 'required field missing', '@entity': ["failed conditional validation given value of field 'algorithm'"] }] }] }],
  ['the public key must parse', 'consumers: [{ username: c, jwt_secrets: [{ algorithm: EdDSA, rsa_public_key: nope }] }]\n',
    { consumers: [{ jwt_secrets: [{ rsa_public_key: 'invalid key', '@entity': ["failed conditional validation given value of field 'algorithm'"] }] }] }],
  ['unknown algorithm', 'consumers: [{ username: c, jwt_secrets: [{ algorithm: none }] }]\n',
    { consumers: [{ jwt_secrets: [{ algorithm: 'expected one of: HS256, HS384, HS512, RS256, RS384, RS512, ES256, ES384, ES512, PS256, PS384, PS512, EdDSA' }] }] }],
  ['a top-level secret needs its consumer', 'jwt_secrets: [{ key: k }]\n', { jwt_secrets: [{ consumer: 'required field missing' }] }],
  ['duplicate key', 'consumers: [{ username: c, jwt_secrets: [{ key: k }, { key: k }] }]\n',
    { consumers: [{ jwt_secrets: [null, "uniqueness violation: 'jwt_secrets' entity with key set to 'k' already declared"] }] }],
];

for (const [title, yaml, expected] of ERRORS) {
  test(`error: ${title}`, () => assert.deepEqual(fields(yaml), expected));
}

test('maximum_expiration with exp to verify is valid', () => {
  assert.equal(parse('plugins: [{ name: jwt, config: { maximum_expiration: 60, claims_to_verify: [exp, nbf] } }]\n').plugins.length, 1);
});
