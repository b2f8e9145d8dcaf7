// A key-auth credential's `ttl` is the second it expires (Unix seconds, as `kong config
// db_export` writes it). DB-less Kong finds the credential only while `ttl - ngx.time()` is
// positive (kong/db/strategies/off/init.lua process_ttl_field), so it stops authenticating at
// that second, however long the configuration has been loaded.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConsumerIndex } from './consumer-index.ts';
import type { KeyauthCredential } from '../declarative/types.ts';

const DAN = { id: '3e1b7c52-9a04-4d6f-8b21-5c7e0a9f4d18', created_at: 1, updated_at: 1, username: 'dan', custom_id: null, tags: null };
const credential = (key: string, ttl?: number): KeyauthCredential => ({
  id: `00000000-0000-4000-8000-${String(key.length).padStart(12, '0')}`, created_at: 1, consumer: { id: DAN.id }, key, tags: null,
  ...(ttl === undefined ? {} : { ttl }),
});

test('a key-auth credential authenticates until its ttl second, then never again', () => {
  let now = 1_900_000_000 - 60.5;
  const index = new ConsumerIndex(
    { consumers: [DAN], keyauth_credentials: [credential('lasting'), credential('expiring', 1_900_000_000)], basicauth_credentials: [], acls: [], jwt_secrets: [], hmacauth_credentials: [] },
    () => now,
  );
  assert.equal(index.keyauthCredential('expiring')?.key, 'expiring');
  now = 1_900_000_000 - 0.5; // ngx.time() is whole seconds: one left
  assert.equal(index.keyauthCredential('expiring')?.key, 'expiring');
  now = 1_900_000_000;
  assert.equal(index.keyauthCredential('expiring'), undefined);
  now += 86_400;
  assert.equal(index.keyauthCredential('expiring'), undefined);
  assert.equal(index.keyauthCredential('lasting')?.key, 'lasting');
});
