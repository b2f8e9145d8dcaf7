// How Kong's redis record becomes a connection (policies/init.lua get_redis_connection): AUTH
// only with a password, the username only with it, TLS settings only with ssl.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { redisOptions, type RedisSettings } from './redis-counters.ts';

const BASE: RedisSettings = { host: 'r.test', port: 6390, timeout: 1500, username: null, password: null, database: 3, ssl: false, ssl_verify: false, server_name: null };

test('redisOptions: host, port, database and Kong\'s timeout for connect and each command', () => {
  const o = redisOptions(BASE);
  assert.deepEqual([o.host, o.port, o.db, o.connectTimeout, o.commandTimeout, o.maxRetriesPerRequest], ['r.test', 6390, 3, 1500, 1500, 0]);
  assert.equal(o.password, undefined);
  assert.equal(o.tls, undefined);
});

test('redisOptions: a username without a password sends no AUTH; an empty password neither', () => {
  assert.equal(redisOptions({ ...BASE, username: 'u' }).username, undefined);
  assert.equal(redisOptions({ ...BASE, password: '' }).password, undefined);
  const o = redisOptions({ ...BASE, username: 'u', password: 'p' });
  assert.deepEqual([o.username, o.password], ['u', 'p']);
});

test('redisOptions: ssl with ssl_verify and server_name', () => {
  assert.deepEqual(redisOptions({ ...BASE, ssl: true }).tls, { rejectUnauthorized: false });
  assert.deepEqual(redisOptions({ ...BASE, ssl: true, ssl_verify: true, server_name: 'redis.internal' }).tls, { rejectUnauthorized: true, servername: 'redis.internal' });
});

test('redisOptions: a timeout of 0 sets no timeout', () => {
  const o = redisOptions({ ...BASE, timeout: 0 });
  assert.deepEqual([o.connectTimeout, o.commandTimeout], [undefined, undefined]);
});
