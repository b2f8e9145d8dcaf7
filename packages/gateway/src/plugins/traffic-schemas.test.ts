// The traffic-control plugins' schemas: Kong's error texts for bad configs (from each plugin's
// spec/03-plugins/<nn>-<name>/01-schema_spec.lua), and the defaults Kong fills.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from '../declarative/parse-declarative-config.ts';
import { GatewayError } from '../errors.ts';

const parse = (plugin: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [${plugin}]\n`, { now: 1_700_000_000 });

function fields(plugin: string): unknown {
  try {
    parse(plugin);
  } catch (e) {
    if (e instanceof GatewayError) return e.toBody().fields;
    throw e;
  }
  return assert.fail(`expected ${plugin} to be rejected`);
}

// [title, plugin entry, Kong's `fields`].
const ERRORS: [string, string, unknown][] = [
  ['ip-restriction: neither list', '{ name: ip-restriction }',
    { plugins: [{ '@entity': ["at least one of these fields must be non-empty: 'config.allow', 'config.deny'"] }] }],
  ['ip-restriction: a bad address', '{ name: ip-restriction, config: { allow: ["127.0.0.1", "127.0.0.1/33", "hello"] } }',
    { plugins: [{ config: { allow: [null, "invalid ip or cidr range: '127.0.0.1/33'", "invalid ip or cidr range: 'hello'"] } }] }],
  ['ip-restriction: a bad IPv6 range', '{ name: ip-restriction, config: { deny: ["::/129"] } }',
    { plugins: [{ config: { deny: ["invalid ip or cidr range: '::/129'"] } }] }],
  ['bot-detection: a pattern that does not compile', '{ name: bot-detection, config: { deny: ["ok", "(unclosed"] } }',
    { plugins: [{ config: { deny: [null, 'not a valid regex: (unclosed'] } }] }],
  ['bot-detection: not on a consumer', '{ name: bot-detection, consumer: c }',
    { plugins: [{ consumer: 'value must be null' }] }],
  ['rate-limiting: no period', '{ name: rate-limiting }',
    { plugins: [{ '@entity': ["at least one of these fields must be non-empty: 'config.second', 'config.minute', 'config.hour', 'config.day', 'config.month', 'config.year'"] }] }],
  ['rate-limiting: a longer period with a lower limit', '{ name: rate-limiting, config: { second: 10, hour: 5 } }',
    { plugins: [{ config: 'The limit for hour(5.0) cannot be lower than the limit for second(10.0)' }] }],
  // Kong's exact words in DB-less mode (spec/03-plugins/23-rate-limiting/03-api_spec.lua:123-146).
  ['rate-limiting: cluster needs a database, so it is not among the policies', '{ name: rate-limiting, config: { minute: 1, policy: cluster } }',
    { plugins: [{ config: { policy: 'expected one of: local, redis' } }] }],
  ['rate-limiting: redis needs redis.host', '{ name: rate-limiting, config: { minute: 1, policy: redis } }',
    { plugins: [{ config: { redis: { host: 'required field missing' } }, '@entity': ["failed conditional validation given value of field 'config.policy'"] }] }],
  ['rate-limiting: redis with a sync_rate below 0.02', '{ name: rate-limiting, config: { minute: 1, policy: redis, redis: { host: r }, sync_rate: 0.01 } }',
    { plugins: [{ config: 'sync_rate must be greater than 0.02, or -1 to disable' }] }],
  ['rate-limiting: redis sync_rate (periodic sync) is refused by name', '{ name: rate-limiting, config: { minute: 1, policy: redis, redis: { host: r }, sync_rate: 1 } }',
    { plugins: [{ config: 'sync_rate is not supported by this gateway (every request counts in Redis: use -1)' }] }],
  ['rate-limiting: an unknown policy', '{ name: rate-limiting, config: { minute: 1, policy: memcached } }',
    { plugins: [{ config: { policy: 'expected one of: local, redis' } }] }],
  ['rate-limiting: limit_by is one of Kong Gateway\'s', '{ name: rate-limiting, config: { minute: 1, limit_by: tenant } }',
    { plugins: [{ config: { limit_by: 'expected one of: consumer, consumer-group, credential, ip, service, header, path' } }] }],
  ['rate-limiting: limit_by header needs header_name', '{ name: rate-limiting, config: { minute: 1, limit_by: header } }',
    { plugins: [{ config: { header_name: 'required field missing' }, '@entity': ["failed conditional validation given value of field 'config.limit_by'"] }] }],
  ['rate-limiting: sync_rate only with redis', '{ name: rate-limiting, config: { minute: 1, sync_rate: 1 } }',
    { plugins: [{ config: 'sync_rate can only be used with the redis policy' }] }],
  ['rate-limiting: a limit must be positive', '{ name: rate-limiting, config: { minute: 0 } }',
    { plugins: [{ config: { minute: 'value must be greater than 0' } }] }],
];

for (const [title, plugin, expected] of ERRORS) {
  test(`schema: ${title}`, () => assert.deepEqual(fields(plugin), expected));
}

test('schema: ip-restriction accepts IPv4, IPv6 and both CIDR forms', () => {
  const s = parse('{ name: ip-restriction, config: { allow: ["10.0.0.0/8", "::1", "fe80::/10"], deny: ["10.1.2.3"] } }');
  assert.deepEqual(s.plugins[0]!.config, { allow: ['10.0.0.0/8', '::1', 'fe80::/10'], deny: ['10.1.2.3'], status: null, message: null });
});

test('schema: bot-detection defaults to empty lists', () => {
  assert.deepEqual(parse('{ name: bot-detection }').plugins[0]!.config, { allow: [], deny: [] });
});

test('schema: rate-limiting defaults (Kong DB-less), redis record filled', () => {
  const config = parse('{ name: rate-limiting, config: { minute: 5 } }').plugins[0]!.config;
  assert.equal(config.policy, 'local');
  assert.equal(config.limit_by, 'consumer');
  assert.equal(config.fault_tolerant, true);
  assert.equal(config.error_code, 429);
  assert.equal(config.error_message, 'API rate limit exceeded');
  assert.equal(config.sync_rate, -1);
  assert.deepEqual(config.redis, { host: null, port: 6379, timeout: 2000, username: null, password: null, database: 0, ssl: false, ssl_verify: false, server_name: null });
});

test('schema: rate-limiting redis, with the deprecated redis_* shorthands moved into the record', () => {
  const config = parse('{ name: rate-limiting, config: { minute: 5, policy: redis, redis_host: r.test, redis_port: 6390, redis_database: 2, redis_password: pw } }').plugins[0]!.config;
  assert.equal(config.policy, 'redis');
  assert.deepEqual(config.redis, { host: 'r.test', port: 6390, timeout: 2000, username: null, password: 'pw', database: 2, ssl: false, ssl_verify: false, server_name: null });
});
