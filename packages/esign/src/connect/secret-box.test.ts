import assert from 'node:assert/strict';
import { createCipheriv } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadSecretKey, SECRET_KEY_FILE } from './load-secret-key.ts';
import { SecretBox } from './secret-box.ts';

test('SecretBox: round trip, a fresh IV each time, and a wrong key or altered value fails', () => {
  const box = new SecretBox(new Uint8Array(32).fill(1));
  const sealed = box.seal('hmac secret');
  assert.match(sealed, /^v1\./);
  assert.doesNotMatch(sealed, /hmac secret/);
  assert.notEqual(box.seal('hmac secret'), sealed);
  assert.equal(box.open(sealed), 'hmac secret');
  assert.throws(() => new SecretBox(new Uint8Array(32).fill(2)).open(sealed));
  const altered = `v1.${Buffer.from(Buffer.from(sealed.slice(3), 'base64').map((b, i) => (i === 30 ? b ^ 1 : b))).toString('base64')}`;
  assert.throws(() => box.open(altered));
  assert.throws(() => new SecretBox(new Uint8Array(16)), /32-byte key/);
  // A value forged with a truncated tag (4 bytes: 2^32 guesses, not 2^128) is refused.
  const key = new Uint8Array(32).fill(1);
  const iv = Buffer.alloc(12, 7);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.final();
  assert.throws(() => box.open(`v1.${Buffer.concat([iv, cipher.getAuthTag().subarray(0, 4)]).toString('base64')}`));
});

test('loadSecretKey: the configured key wins; otherwise one private key file in DATA_DIR, kept across starts', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-connect-key-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const configured = new Uint8Array(32).fill(9);
  assert.equal(loadSecretKey(configured, dir), configured);
  const first = loadSecretKey(undefined, dir);
  assert.equal(first.byteLength, 32);
  assert.deepEqual(loadSecretKey(undefined, dir), first);
  assert.equal(statSync(join(dir, SECRET_KEY_FILE)).mode & 0o777, 0o600);
  assert.equal(Buffer.from(readFileSync(join(dir, SECRET_KEY_FILE), 'utf8').trim(), 'base64').byteLength, 32);
});
