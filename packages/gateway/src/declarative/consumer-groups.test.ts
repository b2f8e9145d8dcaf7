// Consumer groups in kong.yml (Kong Gateway's consumer_groups entity, decK's file format):
// groups with nested plugins, consumers' `groups` membership, Kong's consumer_group_consumers
// at the top level (what an export writes), plugin scoping rules, and errors in Kong's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';
import { exportConfig } from './export-config.ts';
import { GatewayError } from '../errors.ts';
import { deriveEntityId } from './uuid-v5.ts';

const V3 = '_format_version: "3.0"\n';
const parse = (yaml: string) => parseDeclarativeConfig(V3 + yaml, { now: 1_700_000_000, randomId: () => '00000000-0000-4000-8000-000000000001' });

function fields(yaml: string): unknown {
  try {
    parse(yaml);
  } catch (e) {
    if (e instanceof GatewayError) return e.toBody().fields;
    throw e;
  }
  return assert.fail('expected the configuration to be rejected');
}

const FILE = `consumer_groups:
  - name: gold
    tags: [paid]
    plugins:
      - name: request-transformer
        config: { add: { headers: ['x-tier:gold'] } }
  - name: silver
consumers:
  - username: alice
    groups: [{ name: gold }, { name: silver }]
  - username: bob
plugins:
  - name: request-transformer
    consumer_group: silver
    config: { add: { headers: ['x-tier:silver'] } }
  - name: request-transformer
    config: { add: { headers: ['x-tier:none'] } }
consumer_group_consumers:
  - consumer: bob
    consumer_group: silver
`;

test('consumer groups, memberships and group-scoped plugins load with ids Kong derives', () => {
  const s = parse(FILE);
  const [gold, silver] = s.consumer_groups;
  assert.deepEqual(gold, { id: deriveEntityId('consumer_groups', 'gold'), created_at: 1_700_000_000, updated_at: 1_700_000_000, name: 'gold', tags: ['paid'] });
  assert.equal(silver?.name, 'silver');
  const [alice, bob] = s.consumers;
  assert.deepEqual(
    s.consumer_group_consumers.map((m) => [m.consumer.id, m.consumer_group.id]),
    [[alice!.id, gold.id], [alice!.id, silver.id], [bob!.id, silver.id]],
  );
  // The nested plugin is scoped to its group; an unscoped plugin keeps Kong's open-source id.
  const [nested, scoped, global] = s.plugins;
  assert.deepEqual(nested?.consumer_group, { id: gold.id });
  assert.deepEqual(scoped?.consumer_group, { id: silver.id });
  assert.equal(global?.consumer_group, null);
  assert.equal(global?.id, deriveEntityId('plugins', 'plugins:*:request-transformer:::'));
  assert.equal(nested?.id, deriveEntityId('plugins', `plugins:*:request-transformer::::${gold.id}`));
  assert.equal(scoped?.id, deriveEntityId('plugins', 'plugins:*:request-transformer::::silver'));
});

test('an export parses back into the same groups and memberships', () => {
  const s = parse(FILE);
  const again = parseDeclarativeConfig(exportConfig(s), { now: 1, randomId: () => '00000000-0000-4000-8000-000000000009' });
  assert.deepEqual(again.consumer_groups, s.consumer_groups);
  assert.deepEqual(again.consumer_group_consumers, s.consumer_group_consumers);
  assert.deepEqual(again.plugins.map((p) => p.consumer_group), s.plugins.map((p) => p.consumer_group));
});

const ERRORS: [string, string, unknown][] = [
  ['a group needs a name', 'consumer_groups: [{ tags: [a] }]\n', { consumer_groups: [{ name: 'required field missing' }] }],
  ['group names are unique', 'consumer_groups: [{ name: g }, { name: g }]\n',
    { consumer_groups: [null, "uniqueness violation: 'consumer_groups' entity with name set to 'g' already declared"] }],
  ['a membership names a group that exists', 'consumers: [{ username: a, groups: [{ name: ghost }] }]\n',
    { consumers: [{ groups: ["invalid reference 'consumer_group: ghost' (no such entry in 'consumer_groups')"] }] }],
  ['a membership entry names its group', 'consumer_groups: [{ name: g }]\nconsumers: [{ username: a, groups: [{ tags: [x] }] }]\n',
    { consumers: [{ groups: [{ '@entity': ["at least one of these fields must be non-empty: 'id', 'name'"], tags: 'unknown field' }] }] }],
  ['the same group twice on a consumer', 'consumer_groups: [{ name: g }]\nconsumers: [{ username: a, groups: [{ name: g }, { name: g }] }]\n',
    { consumers: [{ groups: [null, `uniqueness violation: 'consumer_group_consumers' entity with primary key set to '${deriveEntityId('consumer_group_consumers', `consumer_group_consumers:*:g:${deriveEntityId('consumers', 'a')}`)}' already declared`] }] }],
  ['authentication plugins cannot be scoped to a group (no_consumer)', 'consumer_groups: [{ name: g, plugins: [{ name: key-auth }] }]\n',
    { consumer_groups: [{ plugins: [{ consumer_group: 'value must be null' }] }] }],
  ['nor at the top level', 'consumer_groups: [{ name: g }]\nplugins: [{ name: basic-auth, consumer_group: g }]\n',
    { plugins: [{ consumer_group: 'value must be null' }] }],
  ['a plugin names a consumer or a consumer group, not both', 'consumers: [{ username: c }]\nconsumer_groups: [{ name: g }]\nplugins: [{ name: correlation-id, consumer: c, consumer_group: g }]\n',
    { plugins: [{ '@entity': ["only one or none of these fields must be set: 'consumer', 'consumer_group'"] }] }],
  ['a plugin names a group that exists', 'plugins: [{ name: correlation-id, consumer_group: ghost }]\n',
    { plugins: { [deriveEntityId('plugins', 'plugins:*:correlation-id::::ghost')]: ["invalid reference 'consumer_group: ghost' (no such entry in 'consumer_groups')"] } }],
  ['a top-level membership names both sides', 'consumer_group_consumers: [{ consumer: c }]\n', { consumer_group_consumers: [{ consumer_group: 'required field missing' }] }],
];

for (const [title, yaml, expected] of ERRORS) {
  test(`error: ${title}`, () => assert.deepEqual(fields(yaml), expected));
}
