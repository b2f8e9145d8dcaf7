// Declarative plugins, consumers and credentials: Kong's fields and defaults, ids derived as
// Kong derives them, nesting, references, and every error in Kong's shape (from Kong's
// spec/01-unit/01-db/01-schema/11-declarative_config and the plugins' own schema specs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseDeclarativeConfig, type ParseOptions } from './parse-declarative-config.ts';
import { GatewayError } from '../errors.ts';
import { deriveEntityId } from './uuid-v5.ts';

const NOW = 1_700_000_000;
const V3 = '_format_version: "3.0"\n';
const parse = (yaml: string, options: ParseOptions = {}) =>
  parseDeclarativeConfig(V3 + yaml, { now: NOW, randomId: () => '00000000-0000-4000-8000-000000000001', ...options });

function failure(yaml: string, options: ParseOptions = {}): GatewayError {
  try {
    parse(yaml, options);
  } catch (e) {
    if (e instanceof GatewayError) return e;
    throw e;
  }
  assert.fail('expected the configuration to be rejected');
}

// Distinct random ids (credentials without an id get random ones, as in Kong).
function counter(): () => string {
  let n = 0;
  return () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
}

const sha1 = (s: string): string => createHash('sha1').update(s).digest('hex');

test('consumers, nested credentials and plugins: Kong ids, parent keys filled, defaults complete', () => {
  const s = parse(`consumers:
  - username: bob
    custom_id: b-1
    keyauth_credentials: [{ key: kong }]
    basicauth_credentials: [{ username: bob, password: secret }]
    acls: [{ group: admin }, { group: ops }]
services:
  - name: svc
    host: example.com
    plugins: [{ name: acl, config: { allow: [admin] } }]
    routes:
      - name: r
        paths: [/]
        plugins: [{ name: key-auth }]
plugins:
  - name: basic-auth
    _comment: global, with a comment
`);
  const bob = s.consumers[0]!;
  assert.equal(bob.id, deriveEntityId('consumers', 'bob'));
  assert.deepEqual({ username: bob.username, custom_id: bob.custom_id, tags: bob.tags }, { username: 'bob', custom_id: 'b-1', tags: null });
  const [keyAuth, acl, basic] = s.plugins;
  // Cache keys "plugins:*:<name>:<route>:<service>:<consumer>" with the parent's id filled in.
  assert.equal(keyAuth?.id, deriveEntityId('plugins', `plugins:*:key-auth:${s.routes[0]!.id}::`));
  assert.equal(acl?.id, deriveEntityId('plugins', `plugins:*:acl::${s.services[0]!.id}:`));
  assert.equal(basic?.id, deriveEntityId('plugins', 'plugins:*:basic-auth:::'));
  assert.deepEqual(keyAuth?.route, { id: s.routes[0]!.id });
  assert.equal(keyAuth?.service, null);
  assert.deepEqual(keyAuth?.config, {
    key_names: ['apikey'], hide_credentials: false, anonymous: null, key_in_header: true, key_in_query: true,
    key_in_body: false, run_on_preflight: true, realm: null,
  });
  assert.deepEqual(acl?.config, { allow: ['admin'], deny: null, hide_groups_header: false, always_use_authenticated_groups: false, include_consumer_groups: false });
  assert.deepEqual(basic?.config, { anonymous: null, hide_credentials: false, realm: 'service' });
  assert.deepEqual(basic?.protocols, ['grpc', 'grpcs', 'http', 'https']);
  assert.equal(basic?.enabled, true);
  assert.equal(s.keyauth_credentials[0]?.key, 'kong');
  assert.deepEqual(s.keyauth_credentials[0]?.consumer, { id: bob.id });
  // basic-auth crypto.lua: sha1(password .. consumer id), stored instead of the password.
  assert.equal(s.basicauth_credentials[0]?.password, sha1(`secret${bob.id}`));
  assert.equal(s.basicauth_credentials[0]?.id, deriveEntityId('basicauth_credentials', 'basicauth_credentials:*:bob'));
  assert.deepEqual(s.acls.map((a) => [a.group, a.id]), [
    ['admin', deriveEntityId('acls', `acls:*:${bob.id}:admin`)],
    ['ops', deriveEntityId('acls', `acls:*:${bob.id}:ops`)],
  ]);
});

test('top-level credentials and plugins reference consumers, routes and services by name or id', () => {
  const s = parse(`consumers: [{ username: alice, id: 11111111-2222-4333-8444-555555555555 }, { custom_id: only-custom }]
services: [{ name: svc, host: h, routes: [{ name: r, paths: [/] }] }]
keyauth_credentials:
  - { consumer: alice }
  - { consumer: { id: 11111111-2222-4333-8444-555555555555 }, key: k2 }
acls: [{ consumer: 11111111-2222-4333-8444-555555555555, group: g }]
plugins:
  - { name: key-auth, route: r, service: svc }
`, { randomId: counter() });
  const alice = '11111111-2222-4333-8444-555555555555';
  assert.deepEqual(s.keyauth_credentials.map((k) => k.consumer.id), [alice, alice]);
  // key-auth's key is generated when absent (Kong's `auto`): 32 hex digits.
  assert.match(s.keyauth_credentials[0]!.key, /^[0-9a-f]{32}$/);
  assert.equal(s.acls[0]?.id, deriveEntityId('acls', `acls:*:${alice}:g`));
  assert.deepEqual([s.plugins[0]?.route, s.plugins[0]?.service], [{ id: s.routes[0]!.id }, { id: s.services[0]!.id }]);
  // The key as written goes into the cache key (names, not ids).
  assert.equal(s.plugins[0]?.id, deriveEntityId('plugins', 'plugins:*:key-auth:r:svc:'));
  assert.equal(s.consumers[1]?.username, null);
});

// `kong config db_export` writes every key-auth credential's `ttl` (null, or its expiry in Unix
// seconds); DB-less Kong reads the file as it is (10-declarative_spec.lua:29-50).
test('key-auth credentials take an exported ttl: null or absent is no expiry, a number is kept', () => {
  const s = parse(`consumers:
  - { id: 6a3c1f9e-2b7d-4c55-9e1a-0d8f4b2c7e31, username: carol@example.test, custom_id: ~, tags: ~ }
keyauth_credentials:
  - { id: 9d2e4b6a-1c3f-4e58-a7b9-3f0c5d1e2a64, created_at: 1600000000, consumer: 6a3c1f9e-2b7d-4c55-9e1a-0d8f4b2c7e31, key: carol-key, tags: ~, ttl: ~ }
  - { consumer: carol@example.test, key: carol-temporary, ttl: 1800000000 }
  - { consumer: carol@example.test, key: carol-plain }
`, { randomId: counter() });
  assert.deepEqual(s.keyauth_credentials.map((k) => [k.key, 'ttl' in k ? k.ttl : 'no ttl']), [
    ['carol-key', 'no ttl'], ['carol-temporary', 1800000000], ['carol-plain', 'no ttl'],
  ]);
  assert.equal(s.keyauth_credentials[0]?.created_at, 1600000000);
  // Only ttl-enabled entities have one (basicauth_credentials: none in Kong either).
  assert.deepEqual(failure(`consumers: [{ username: c }]
keyauth_credentials: [{ consumer: c, ttl: soon }]
basicauth_credentials: [{ consumer: c, username: u, password: p, ttl: 5 }]
`).toBody().fields, { keyauth_credentials: [{ ttl: 'expected a number' }], basicauth_credentials: [{ ttl: 'unknown field' }] });
});

test('_transform: false keeps basic-auth passwords as given (already hashed, as GET /config exports them)', () => {
  const s = parse(`_transform: false
consumers: [{ username: bob, basicauth_credentials: [{ username: bob, password: 0123abcd }] }]
`);
  assert.equal(s.basicauth_credentials[0]?.password, '0123abcd');
});

test('KONG_PLUGINS: a plugin left out is "not enabled", as in Kong', () => {
  assert.deepEqual(failure('plugins: [{ name: acl, config: { allow: [a] } }]\n', { enabledPlugins: new Set(['key-auth']) }).toBody().fields, {
    plugins: [{ name: "plugin 'acl' not enabled; add it to the 'plugins' configuration property" }],
  });
});

// [title, yaml after the format line, expected Kong `fields`].
const ERROR_CASES: [string, string, unknown][] = [
  ['unknown plugin (Kong 01-validate_spec)', 'plugins: [{ name: foo }]\n',
    { plugins: [{ name: "plugin 'foo' not enabled; add it to the 'plugins' configuration property" }] }],
  ['a Kong plugin not implemented here is named as such', 'services: [{ host: h, plugins: [{ name: syslog }] }]\n',
    { services: [{ plugins: [{ name: "plugin 'syslog' is bundled with Kong but not implemented by this gateway yet" }] }] }],
  ['plugin without a name', 'plugins: [{ config: {} }]\n', { plugins: [{ name: 'required field missing' }] }],
  ['unknown config field', 'plugins: [{ name: key-auth, config: { key_names: [apikey], nope: 1 } }]\n',
    { plugins: [{ config: { nope: 'unknown field' } }] }],
  ['config types', 'plugins: [{ name: key-auth, config: { hide_credentials: "yes", key_names: "apikey" } }]\n',
    { plugins: [{ config: { hide_credentials: 'expected a boolean', key_names: 'expected an array' } }] }],
  ['key names are header names', 'plugins: [{ name: key-auth, config: { key_names: ["api key"] } }]\n',
    { plugins: [{ config: { key_names: ["bad header name 'api key', allowed characters are A-Z, a-z, 0-9, '_', and '-'"] } }] }],
  ['key_in_body takes a boolean', 'plugins: [{ name: key-auth, config: { key_in_body: "yes" } }]\n',
    { plugins: [{ config: { key_in_body: 'expected a boolean' } }] }],
  ['acl needs allow or deny (acl schema entity_checks)', 'plugins: [{ name: acl }]\n',
    { plugins: [{ '@entity': ["at least one of these fields must be non-empty: 'config.allow', 'config.deny'"] }] }],
  ['acl takes allow or deny, not both', 'plugins: [{ name: acl, config: { allow: [a], deny: [b] } }]\n',
    { plugins: [{ '@entity': ["exactly one of these fields must be non-empty: 'config.allow', 'config.deny'"] }] }],
  ['auth plugins cannot be set on a consumer (typedefs.no_consumer)', 'consumers: [{ username: c }]\nplugins: [{ name: key-auth, consumer: c }]\n',
    { plugins: [{ consumer: 'value must be null' }] }],
  ['…nor nested under one', 'consumers: [{ username: c, plugins: [{ name: basic-auth }] }]\n',
    { consumers: [{ plugins: [{ consumer: 'value must be null' }] }] }],
  ['plugin protocols are http-subsystem ones', 'plugins: [{ name: key-auth, protocols: [tcp] }]\n',
    { plugins: [{ protocols: ['expected one of: grpc, grpcs, http, https'] }] }],
  ['a nested plugin sets no foreign key', 'services: [{ host: h, plugins: [{ name: key-auth, route: r }] }]\n',
    { services: [{ plugins: [{ route: 'value must be null' }] }] }],
  ['consumer needs username or custom_id', 'consumers: [{ tags: [t] }]\n',
    { consumers: [{ '@entity': ["at least one of these fields must be non-empty: 'custom_id', 'username'"] }] }],
  ['a top-level credential needs its consumer', 'keyauth_credentials: [{ key: k }]\nbasicauth_credentials: [{ username: u }]\nacls: [{ consumer: c }]\n',
    { keyauth_credentials: [{ consumer: 'required field missing' }], basicauth_credentials: [{ consumer: 'required field missing', password: 'required field missing' }], acls: [{ group: 'required field missing' }] }],
  // Phase 2: uniqueness and references (declarative_config.lua populate/validate_references).
  ['duplicate username', 'consumers: [{ username: a }, { username: a }]\n',
    { consumers: [null, "uniqueness violation: 'consumers' entity with username set to 'a' already declared"] }],
  // Kong's flatten keys the other unique fields by the endpoint key (15-off_spec.lua:794-826).
  ['duplicate custom_id', 'consumers: [{ username: a, custom_id: x }, { username: b, custom_id: x }]\n',
    { consumers: { b: "uniqueness violation: 'consumers' entity with custom_id set to 'x' already declared" } }],
  ['…keyed by the id when there is no username', 'consumers: [{ custom_id: x }, { custom_id: x, id: 5b6e1d2c-8f3a-4c9e-a1b7-0e4d2f6c8a95 }]\n',
    { consumers: { '5b6e1d2c-8f3a-4c9e-a1b7-0e4d2f6c8a95': "uniqueness violation: 'consumers' entity with custom_id set to 'x' already declared" } }],
  ['duplicate plugin instance_name (its endpoint key)', 'plugins: [{ name: cors, instance_name: edge }, { name: correlation-id, instance_name: edge }]\n',
    { plugins: [null, "uniqueness violation: 'plugins' entity with instance_name set to 'edge' already declared"] }],
  ['duplicate key', 'consumers: [{ username: a, keyauth_credentials: [{ key: k }, { key: k }] }]\n',
    { consumers: [{ keyauth_credentials: [null, "uniqueness violation: 'keyauth_credentials' entity with key set to 'k' already declared"] }] }],
  ['the same plugin twice on one scope is one primary key', 'plugins: [{ name: basic-auth }, { name: basic-auth }]\n',
    { plugins: [null, `uniqueness violation: 'plugins' entity with primary key set to '${deriveEntityId('plugins', 'plugins:*:basic-auth:::')}' already declared`] }],
  ['reference to a missing consumer', 'acls: [{ consumer: ghost, group: g }]\n',
    { acls: { [deriveEntityId('acls', 'acls:*:ghost:g')]: ["invalid reference 'consumer: ghost' (no such entry in 'consumers')"] } }],
];

for (const [title, yaml, fields] of ERROR_CASES) {
  test(`error: ${title}`, () => {
    const e = failure(yaml);
    assert.equal(e.status, 400);
    assert.deepEqual(e.toBody().fields, fields);
  });
}

test('every error is reported at once, each with file:line:column', () => {
  const e = failure(`consumers:
  - tags: [x]
plugins:
  - name: acl
  - name: nope
  - name: key-auth
    config:
      key_names: ["a b"]
`);
  assert.deepEqual(e.lines, [
    "kong.yml:3:5: consumers[0]: at least one of these fields must be non-empty: 'custom_id', 'username'",
    "kong.yml:5:5: plugins[0] (acl): at least one of these fields must be non-empty: 'config.allow', 'config.deny'",
    "kong.yml:6:11: plugins[1].name: plugin 'nope' not enabled; add it to the 'plugins' configuration property",
    "kong.yml:9:19: plugins[2].config.key_names[0]: bad header name 'a b', allowed characters are A-Z, a-z, 0-9, '_', and '-'",
  ]);
  // ?flatten_errors=1: each entity's errors, typed plugin and consumer.
  const flat = e.toBody({ flattenErrors: true }).flattened_errors as { entity_type: string }[];
  assert.deepEqual(flat.map((x) => x.entity_type).sort(), ['consumer', 'plugin', 'plugin', 'plugin']);
});
