import assert from 'node:assert/strict';
import { test } from 'node:test';
import { hashPassword, PASSWORD_HASH_COST, verifyPassword } from './password-hash.ts';
import { constantTimeEqual, newSecretToken, sha256Hex } from './secret-token.ts';

test('scrypt password hashes: salted, self-describing, verified in constant time', async () => {
  const a = await hashPassword('correct horse');
  const b = await hashPassword('correct horse');
  assert.notEqual(a, b, 'a fresh salt each time');
  assert.match(a, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.equal(await verifyPassword('correct horse', a), true);
  assert.equal(await verifyPassword('correct horsE', a), false);
  assert.equal(await verifyPassword('correct horse', 'bcrypt$whatever'), false);
  assert.equal(await verifyPassword('correct horse', 'scrypt$0$0$0$x$y'), false);
});

test('a cost given explicitly (tests\' seeded users) is stored in the hash and checked with it; none given is production\'s', async () => {
  assert.deepEqual(PASSWORD_HASH_COST, { N: 32_768, r: 8, p: 1 });
  const cheap = await hashPassword('correct horse', { N: 1024, r: 8, p: 1 });
  assert.match(cheap, /^scrypt\$1024\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
  assert.equal(await verifyPassword('correct horse', cheap), true);
  assert.equal(await verifyPassword('correct horsE', cheap), false);
});

test('secret tokens: 256-bit base64url; stored as SHA-256 hex', () => {
  const token = newSecretToken();
  assert.match(token, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(newSecretToken(), token);
  assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  assert.equal(constantTimeEqual('abc', 'abc'), true);
  assert.equal(constantTimeEqual('abc', 'abd'), false);
  assert.equal(constantTimeEqual('abc', 'abcd'), false);
});
