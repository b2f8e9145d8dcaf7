// REDIS_URL as the Redis of redis-policy plugins that name none, filled before validation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';
import { GatewayError } from '../errors.ts';
import { redisUrlFields } from './redis-url-defaults.ts';

const parse = (yml: string, redisUrl?: string) => parseDeclarativeConfig(`_format_version: "3.0"\n${yml}`, {
  now: 1_700_000_000, ...(redisUrl === undefined ? {} : { redisDefaults: redisUrlFields(redisUrl) }),
});

test('redisUrlFields: host, port, database, credentials, rediss for TLS', () => {
  assert.deepEqual(redisUrlFields('redis://127.0.0.1:6390/2'), { host: '127.0.0.1', port: 6390, database: 2, ssl: false });
  assert.deepEqual(redisUrlFields('rediss://u%40x:p%3Aw@redis.test'), { host: 'redis.test', port: 6379, database: 0, ssl: true, username: 'u@x', password: 'p:w' });
  assert.deepEqual(redisUrlFields('redis://[::1]:7000'), { host: '::1', port: 7000, database: 0, ssl: false });
});

test('redisUrlFields: what is not a Redis URL is refused, naming the problem', () => {
  assert.throws(() => redisUrlFields('localhost:6379'), /expected redis:\/\/ or rediss:\/\//);
  assert.throws(() => redisUrlFields('http://r.test'), /expected redis:\/\/ or rediss:\/\/, got http:\/\//);
  assert.throws(() => redisUrlFields('redis://r.test/zero'), /database 'zero' is not a number/);
  assert.throws(() => redisUrlFields('not a url'), /is not a URL/);
});

test('a redis-policy plugin naming no host takes REDIS_URL (nested ones too); one naming its host keeps it', () => {
  const s = parse(`services:
  - name: s
    url: http://u.test
    routes:
      - { name: r, paths: [/], plugins: [{ name: response-ratelimiting, config: { policy: redis, limits: { video: { second: 1 } } } }] }
    plugins: [{ name: rate-limiting, config: { minute: 1, policy: redis, redis: { timeout: 500 } } }]
plugins:
  - { name: rate-limiting, config: { minute: 1, policy: redis, redis: { host: own.test } } }
  - { name: rate-limiting, route: r, config: { minute: 1, policy: redis, redis_host: legacy.test } }
`, 'redis://:pw@10.0.0.5:6390/3');
  const redisOf = (pred: (p: (typeof s.plugins)[number]) => boolean) => s.plugins.find(pred)!.config.redis as Record<string, unknown>;
  const filled = { host: '10.0.0.5', port: 6390, database: 3, ssl: false, password: 'pw' };
  assert.deepEqual(redisOf((p) => p.name === 'response-ratelimiting'), { ...filled, timeout: 2000, username: null, ssl_verify: false, server_name: null });
  assert.deepEqual(redisOf((p) => p.name === 'rate-limiting' && p.service?.id !== undefined && p.config.policy === 'redis'),
    { ...filled, timeout: 500, username: null, ssl_verify: false, server_name: null });
  assert.equal(redisOf((p) => p.route === null && p.service === null).host, 'own.test');
  assert.equal(redisOf((p) => p.route !== null && p.name === 'rate-limiting').host, 'legacy.test');
});

test('without REDIS_URL, a redis policy naming no host is Kong\'s "required field missing"', () => {
  assert.throws(() => parse('plugins: [{ name: rate-limiting, config: { minute: 1, policy: redis } }]\n'),
    (e: unknown) => e instanceof GatewayError && JSON.stringify(e.toBody().fields).includes('"host":"required field missing"'));
});
