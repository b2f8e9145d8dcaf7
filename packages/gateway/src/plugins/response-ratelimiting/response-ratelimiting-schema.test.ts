// response-ratelimiting's schema: the cases of Kong's
// spec/03-plugins/24-response-rate-limiting/01-schema_spec.lua, with Kong's error texts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from '../../declarative/parse-declarative-config.ts';
import { GatewayError } from '../../errors.ts';

const parse = (config: string) => parseDeclarativeConfig(`_format_version: "3.0"\nplugins: [{ name: response-ratelimiting, config: ${config} }]\n`, { now: 1_700_000_000 });

/** The `config` part of Kong's `fields` for a refused config. */
function configErrors(config: string): unknown {
  try {
    parse(config);
  } catch (e) {
    if (e instanceof GatewayError) return (e.toBody().fields as { plugins: { config: unknown }[] }).plugins[0]!.config;
    throw e;
  }
  return assert.fail(`expected ${config} to be refused`);
}

const REFUSED: [string, string, unknown][] = [
  ['empty config', '{}', { limits: 'required field missing' }],
  ['no limit', '{ limits: {} }', { limits: 'length must be at least 1' }],
  ['smaller unit is less than bigger unit', '{ limits: { video: { second: 2, minute: 1 } } }',
    { limits: 'the limit for minute(1.0) cannot be lower than the limit for second(2.0)' }],
  ['smaller unit is less than bigger unit (bis)', '{ limits: { video: { second: 1, minute: 2, hour: 3, day: 4, month: 6, year: 5 } } }',
    { limits: 'the limit for year(5.0) cannot be lower than the limit for month(6.0)' }],
  ['invalid unit type', '{ limits: { second: 10 } }', { limits: 'expected a record' }],
  ['a limit without any period', '{ limits: { video: {} } }',
    { limits: { '@entity': ["at least one of these fields must be non-empty: 'second', 'minute', 'hour', 'day', 'month', 'year'"] } }],
  ['redis needs a host', '{ limits: { video: { second: 10 } }, policy: redis, redis: { port: 6379 } }', { redis: { host: 'required field missing' } }],
  // DB-less Kong lists only local and redis (response-ratelimiting/schema.lua, policy under is_dbless()).
  ['cluster needs a database: not among the policies', '{ limits: { video: { second: 10 } }, policy: cluster }',
    { policy: 'expected one of: local, redis' }],
  // Not in Kong (which fails when it sets the header): a name that cannot be in a header name.
  ['a limit name that cannot be a header name', '{ limits: { "video clips": { second: 10 } } }',
    { limits: "'video clips' cannot be part of a header name (X-RateLimit-Remaining-<name>)" }],
];

for (const [title, config, expected] of REFUSED) test(`schema: ${title}`, () => assert.deepEqual(configErrors(config), expected));

test('schema: an unknown period is an unknown field of that limit', () => {
  assert.equal((configErrors('{ limits: { video: { seco: 1 } } }') as { limits: { seco: string } }).limits.seco, 'unknown field');
});

test('schema: proper configs validate, with Kong\'s defaults', () => {
  assert.deepEqual(parse('{ limits: { video: { second: 1 } } }').plugins[0]!.config, {
    header_name: 'x-kong-limit', limit_by: 'consumer', policy: 'local', fault_tolerant: true, block_on_first_violation: false,
    hide_client_headers: false, limits: { video: { second: 1 } },
    redis: { host: null, port: 6379, timeout: 2000, username: null, password: null, database: 0, ssl: false, ssl_verify: false, server_name: null },
  });
  parse('{ limits: { video: { second: 1, minute: 2, hour: 3, day: 4, month: 5, year: 6 } } }');
  parse('{ limits: { video: { second: null, minute: 1 } } }');
});

test('schema: redis, new structure and the deprecated redis_* fields alike', () => {
  const redis = { host: 'r.test', port: 6380, timeout: 1100, username: 'test', password: 'testXXX', database: 0, ssl: true, ssl_verify: false, server_name: 'redis.test' };
  const fresh = parse('{ limits: { video: { second: 10 } }, policy: redis, redis: { host: r.test, port: 6380, database: 0, username: test, password: testXXX, ssl: true, ssl_verify: false, timeout: 1100, server_name: redis.test } }');
  assert.deepEqual(fresh.plugins[0]!.config.redis, redis);
  const legacy = parse('{ limits: { video: { second: 10 } }, policy: redis, redis_host: r.test, redis_port: 6380, redis_database: 0, redis_username: test, redis_password: testXXX, redis_ssl: true, redis_ssl_verify: false, redis_timeout: 1100, redis_server_name: redis.test }');
  assert.deepEqual(legacy.plugins[0]!.config.redis, redis);
});
