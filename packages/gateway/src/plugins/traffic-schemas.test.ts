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
