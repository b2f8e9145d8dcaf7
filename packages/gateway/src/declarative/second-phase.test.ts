// What Kong's declarative flatten checks once every entity passed its schema, and how it reports
// it (kong/db/schema/others/declarative_config.lua): foreign keys a nested child writes itself,
// the other unique fields (custom_id) keyed like references, and the ids it derived showing in
// the flattened errors. The configurations are our own; each test names the Kong spec it pins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';
import type { GatewayError } from '../errors.ts';
import { rejectionOf } from './rejection.fixture.ts';
import { deriveEntityId } from './uuid-v5.ts';

const V3 = '_format_version: "3.0"\n';
let random = 0;
const parse = (yaml: string) =>
  parseDeclarativeConfig(V3 + yaml, { now: 1_700_000_000, randomId: () => `00000000-0000-4000-8000-${String(++random).padStart(12, '0')}` });

const failure = (yaml: string): GatewayError => rejectionOf(() => parse(yaml));

const FRANK = '4c0d8e2a-7b61-4f3d-9a5e-1e2f3a4b5c6d';

// 03-flatten_spec.lua:1407-1510: a nested basic-auth credential naming its consumer by id or username.
test('a nested credential may name its own consumer, by username, id or {id}', () => {
  const s = parse(`consumers:
  - id: ${FRANK}
    username: frank
    basicauth_credentials: [{ username: frank-basic, password: pw, consumer: frank }]
    keyauth_credentials: [{ key: frank-key, consumer: ${FRANK} }]
    acls: [{ group: ops, consumer: { id: ${FRANK} } }, { group: dev, consumer: frank }]
`);
  const owners = [...s.basicauth_credentials, ...s.keyauth_credentials, ...s.acls].map((c) => c.consumer.id);
  assert.deepEqual(owners, [FRANK, FRANK, FRANK, FRANK]);
  // basic-auth hashes with the consumer's id, not the name written.
  assert.equal(s.basicauth_credentials[0]?.password, createHash('sha1').update(`pw${FRANK}`).digest('hex'));
  // Kong's cache key takes the reference as written: a name goes in, an {id} adds nothing.
  assert.deepEqual(s.acls.map((a) => a.id), [deriveEntityId('acls', 'acls:*:ops'), deriveEntityId('acls', 'acls:*:frank:dev')]);
});

// 03-flatten_spec.lua:2244-2263 (#7696) names the parent with {id}; the name works too.
test('a nested route may name its own service', () => {
  const web = '7e2a9c41-3d5b-4f68-8a0c-2b1d4e6f8a13';
  const s = parse(`services:
  - id: ${web}
    name: web
    host: web.test
    routes:
      - { name: home, paths: [/], service: { id: ${web} } }
      - { name: about, paths: [/about], service: web }
`);
  assert.deepEqual(s.routes.map((r) => r.service), [{ id: web }, { id: web }]);
});

// populate_references sets the parent's key after reading the one written (declarative_config.lua).
test('a nested child naming another existing entity belongs to its parent, as in Kong', () => {
  const s = parse(`consumers:
  - username: gina
  - username: hal
    keyauth_credentials: [{ key: hal-key, consumer: gina }]
`);
  assert.deepEqual(s.keyauth_credentials[0]?.consumer, { id: deriveEntityId('consumers', 'hal') });
});

// 03-flatten_spec.lua:2244-2263 (#7696): the {id} passes the schema and fails as a reference,
// keyed by the route's name at the top level.
test('a nested {id} that names no service is a reference error keyed by the route', () => {
  const ghost = '0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e';
  const e = failure(`services:
  - name: api
    url: http://api.test
    routes:
      - name: api-route
        paths: [/]
        service: { id: ${ghost} }
`);
  const message = `invalid reference 'service: {"id":"${ghost}"}' (no such entry in 'services')`;
  assert.deepEqual(e.toBody().fields, { routes: { 'api-route': [message] } });
  assert.deepEqual(e.lines, [`kong.yml:8:18: services[0].routes[0].service: ${message}`]);
});

// 03-flatten_spec.lua:1445-1539: a name or id naming nothing keeps the first validation's error,
// reported with the other schema errors (and so before any uniqueness or reference check).
test('a nested name or id that names nothing is a schema error, with the others', () => {
  const e = failure(`consumers:
  - username: ivy
    basicauth_credentials: [{ username: ivy-basic, password: pw, consumer: nobody }]
    keyauth_credentials: [{ key: ivy-key, consumer: 00000000-0000-4000-8000-00000000dead }]
  - username: ivy
services:
  - { name: s, host: h, port: 70000 }
`);
  assert.deepEqual(e.toBody().fields, {
    consumers: [{ basicauth_credentials: [{ consumer: 'value must be null' }], keyauth_credentials: [{ consumer: 'value must be null' }] }],
    services: [{ port: 'value should be between 0 and 65535' }],
  });
  // The human lines also name what Kong would report next.
  assert.deepEqual(e.lines, [
    'kong.yml:8:31: services[0].port: value should be between 0 and 65535',
    'kong.yml:5:53: consumers[0].keyauth_credentials[0].consumer: value must be null',
    'kong.yml:4:76: consumers[0].basicauth_credentials[0].consumer: value must be null',
    "kong.yml:6:5: consumers[1] (ivy): uniqueness violation: 'consumers' entity with username set to 'ivy' already declared",
  ]);
  // Alone, it is still reported before the clash.
  assert.deepEqual(failure(`consumers:
  - { username: ivy, acls: [{ group: g, consumer: nobody }] }
  - { username: ivy }
`).toBody().fields, { consumers: [{ acls: [{ consumer: 'value must be null' }] }] });
});

// 15-off_spec.lua:794-826: duplicate custom_ids are keyed by the consumer's username.
test('a duplicate custom_id is keyed by the username, checked once names and references pass', () => {
  const yaml = `consumers:
  - { username: foo, custom_id: conflict }
  - { username: bar, custom_id: conflict }
`;
  const body = failure(yaml).toBody();
  const message = "uniqueness violation: 'consumers' entity with custom_id set to 'conflict' already declared";
  assert.deepEqual(body.fields, { consumers: { bar: message } });
  assert.equal(body.message, `declarative config is invalid: {consumers={bar="${message}"}}`);
  // Kong cannot tie a keyed error to an entity of the file: it stays in `fields`.
  const flat = failure(yaml).toBody({ flattenErrors: true });
  assert.deepEqual([flat.fields, flat.flattened_errors], [{ consumers: { bar: message } }, []]);
  assert.deepEqual(failure(yaml).lines, [`kong.yml:4:33: consumers[1].custom_id: ${message}`]);

  // A duplicate username (populate_references) is reported first; the custom_id only to humans.
  const both = failure(`${yaml}  - { username: bar }\n`);
  assert.deepEqual(both.toBody().fields, { consumers: [null, null, "uniqueness violation: 'consumers' entity with username set to 'bar' already declared"] });
  assert.deepEqual(both.lines, [
    "kong.yml:5:5: consumers[2] (bar): uniqueness violation: 'consumers' entity with username set to 'bar' already declared",
    `kong.yml:4:33: consumers[1].custom_id: ${message}`,
  ]);
});

// 15-off_spec.lua:2964-3071 and 05-error-flattening_spec.lua:2527-2566: the flattened entry of a
// duplicate target has its id and its upstream's, which Kong derived, though the file gave none.
test('flattened uniqueness errors carry the ids Kong derived: the entity\'s and its parent\'s', () => {
  const pool = deriveEntityId('upstreams', 'pool');
  const target = deriveEntityId('targets', `targets:*:${pool}:10.0.0.7:80`);
  const body = failure(`upstreams:
  - name: pool
    targets:
      - { target: "10.0.0.7:80", tags: [first] }
      - { target: "10.0.0.7:80", tags: [second] }
`).toBody({ flattenErrors: true });
  const message = `uniqueness violation: 'targets' entity with primary key set to '${target}' already declared`;
  assert.deepEqual(body.fields, {});
  assert.deepEqual(body.flattened_errors, [{
    entity_type: 'target',
    entity_id: target,
    entity_tags: ['second'],
    entity: { target: '10.0.0.7:80', tags: ['second'], id: target, upstream: { id: pool } },
    errors: [{ type: 'entity', message }],
  }]);

  // A top-level entity gets the id derived from its name.
  const consumers = failure('consumers: [{ username: kim, tags: [one] }, { username: kim, tags: [two] }]\n').toBody({ flattenErrors: true });
  const kim = deriveEntityId('consumers', 'kim');
  assert.deepEqual((consumers.flattened_errors as { entity: unknown; entity_id: string }[]).map((x) => [x.entity_id, x.entity]), [
    [kim, { username: 'kim', tags: ['two'], id: kim }],
  ]);

  // Kong derives no id for a key-auth credential (its key is `auto`): none is shown; its consumer's is.
  const keys = failure('consumers: [{ username: lee, keyauth_credentials: [{ key: same }, { key: same }] }]\n').toBody({ flattenErrors: true });
  assert.deepEqual(keys.flattened_errors, [{
    entity_type: 'keyauth_credential',
    entity: { key: 'same', consumer: { id: deriveEntityId('consumers', 'lee') } },
    errors: [{ type: 'entity', message: "uniqueness violation: 'keyauth_credentials' entity with key set to 'same' already declared" }],
  }]);
});

test('schema errors are flattened against the file as written: no derived ids', () => {
  const body = failure(`upstreams:
  - name: pool
    targets: [{ target: "10.0.0.7:80", weight: -1 }]
`).toBody({ flattenErrors: true });
  assert.deepEqual(body.flattened_errors, [{
    entity_type: 'target',
    entity: { target: '10.0.0.7:80', weight: -1 },
    errors: [{ type: 'field', field: 'weight', message: 'value should be between 0 and 65535' }],
  }]);
});
