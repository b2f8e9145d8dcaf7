// Kong's jwt_parser.lua decoding rules (spec/03-plugins/16-jwt/01-jwt_parser_spec.lua): parts,
// base64url, algorithms; registered claims against a given clock.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decodeBase64Url, decodeJwt, exceedsMaximumExpiration, verifyJwtSignature, verifyRegisteredClaims } from './jwt-token.ts';
import { createHmac } from 'node:crypto';

const part = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');
const hs256 = (claims: object, secret: string): string => {
  const input = `${part({ typ: 'JWT', alg: 'HS256' })}.${part(claims)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
};

test('base64url as nginx decodes it: URL alphabet only, padding optional, 4n+1 refused', () => {
  assert.equal(decodeBase64Url('aGk')?.toString(), 'hi');
  assert.equal(decodeBase64Url('aGk=')?.toString(), 'hi');
  assert.equal(decodeBase64Url('a+/b'), undefined);
  assert.equal(decodeBase64Url('aGkhx'), undefined);
});

test('decode errors, in Kong\'s order', () => {
  assert.deepEqual(decodeJwt('only-one-part'), { error: 'invalid JSON' });
  assert.deepEqual(decodeJwt(`${part({ alg: 'HS256' })}.${part({})}`), { error: 'invalid JSON' });
  assert.deepEqual(decodeJwt(`${part({ alg: 'none' })}.${part({})}.`), { error: 'invalid alg' });
  assert.deepEqual(decodeJwt(`${part({ typ: 'JWT' })}.${part({})}.`), { error: 'invalid alg' });
  assert.deepEqual(decodeJwt(`${part({ alg: 'HS256' })}.${part({})}.a+b`), { error: 'invalid signature' });
});

test('a fourth dot stays in the signature, which is then no base64url', () => {
  assert.deepEqual(decodeJwt(`${hs256({ iss: 'k' }, 's')}.extra`), { error: 'invalid signature' });
});

test('HMAC signatures verify with the secret bytes only', () => {
  const token = decodeJwt(hs256({ iss: 'k' }, 's3cr3t'));
  assert.ok(!('error' in token));
  assert.equal(verifyJwtSignature(token, Buffer.from('s3cr3t')), true);
  assert.equal(verifyJwtSignature(token, Buffer.from('other')), false);
});

test('registered claims and maximum expiration against the clock', () => {
  const now = 1000;
  assert.equal(verifyRegisteredClaims({ exp: 1001, nbf: 1000 }, ['exp', 'nbf'], now), undefined);
  assert.deepEqual(verifyRegisteredClaims({ exp: 1000, nbf: 1001 }, ['exp', 'nbf'], now), { exp: 'token expired', nbf: 'token not valid yet' });
  assert.deepEqual(verifyRegisteredClaims({ exp: '1001' }, ['exp', 'nbf'], now), { exp: 'must be a number', nbf: 'must be a number' });
  assert.equal(exceedsMaximumExpiration({ exp: 1300 }, 300, now), false);
  assert.equal(exceedsMaximumExpiration({ exp: 1301 }, 300, now), true);
  assert.equal(exceedsMaximumExpiration({}, 300, now), true);
  assert.equal(exceedsMaximumExpiration({}, 0, now), false);
});
