// The entity types (types.ts) and the field tables the loader validates with (entities/*.ts) are
// two spellings of one shape. This keeps them one: each type's keys are listed here, checked by
// the compiler against the type and at run time against the table; then a loaded kong.yml with
// every entity shows each field's value of the kind its table states, nested records included.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { issueCertificate } from '@signet/kit';
import { PLUGIN_SCHEMAS } from '../plugins/plugin-schemas.ts';
import { CERTIFICATE_FIELDS } from './entities/certificate.ts';
import { CONSUMER_FIELDS } from './entities/consumer.ts';
import { aclSchema, basicauthCredentialSchema, hmacauthCredentialSchema, keyauthCredentialSchema } from './entities/credentials.ts';
import { jwtSecretSchema } from './entities/jwt-secret.ts';
import { pluginSchema } from './entities/plugin.ts';
import { ROUTE_FIELDS } from './entities/route.ts';
import { SERVICE_FIELDS } from './entities/service.ts';
import { SNI_FIELDS } from './entities/sni.ts';
import { TARGET_FIELDS } from './entities/target.ts';
import { UPSTREAM_FIELDS } from './entities/upstream.ts';
import { parseDeclarativeConfig } from './parse-declarative-config.ts';
import type { Field, FieldTable } from './schema.ts';
import { CONSUMER_GROUP_FIELDS, consumerGroupConsumerSchema } from './entities/consumer-group.ts';
import { ENTITY_LISTS, type Snapshot } from './types.ts';

type EntityList = (typeof ENTITY_LISTS)[number];
type EntityOf<L extends EntityList> = Snapshot[L][number];

/** Every key of T, each once: a missing key makes the argument `never`, an unknown one is no key of T. */
const keysOf = <T>() => <const K extends readonly (keyof T & string)[]>(keys: K & ([Exclude<keyof T, K[number]>] extends [never] ? unknown : never)): K => keys;

const TYPE_KEYS: { readonly [L in EntityList]: readonly (keyof EntityOf<L> & string)[] } = {
  services: keysOf<EntityOf<'services'>>()(['id', 'created_at', 'updated_at', 'name', 'retries', 'protocol', 'host', 'port', 'path', 'connect_timeout', 'write_timeout', 'read_timeout', 'tags', 'client_certificate', 'tls_verify', 'tls_verify_depth', 'ca_certificates', 'enabled']),
  routes: keysOf<EntityOf<'routes'>>()(['id', 'created_at', 'updated_at', 'name', 'protocols', 'methods', 'hosts', 'paths', 'headers', 'snis', 'sources', 'destinations', 'strip_path', 'preserve_host', 'regex_priority', 'path_handling', 'https_redirect_status_code', 'request_buffering', 'response_buffering', 'service', 'tags']),
  upstreams: keysOf<EntityOf<'upstreams'>>()(['id', 'created_at', 'updated_at', 'name', 'algorithm', 'hash_on', 'hash_fallback', 'hash_on_header', 'hash_fallback_header', 'hash_on_cookie', 'hash_on_cookie_path', 'hash_on_query_arg', 'hash_fallback_query_arg', 'hash_on_uri_capture', 'hash_fallback_uri_capture', 'slots', 'healthchecks', 'tags', 'host_header', 'client_certificate', 'use_srv_name']),
  targets: keysOf<EntityOf<'targets'>>()(['id', 'created_at', 'updated_at', 'upstream', 'target', 'weight', 'tags']),
  certificates: keysOf<EntityOf<'certificates'>>()(['id', 'created_at', 'updated_at', 'cert', 'key', 'cert_alt', 'key_alt', 'tags']),
  snis: keysOf<EntityOf<'snis'>>()(['id', 'created_at', 'updated_at', 'name', 'certificate', 'tags']),
  consumers: keysOf<EntityOf<'consumers'>>()(['id', 'created_at', 'updated_at', 'username', 'custom_id', 'tags']),
  plugins: keysOf<EntityOf<'plugins'>>()(['id', 'created_at', 'updated_at', 'name', 'instance_name', 'route', 'service', 'consumer', 'consumer_group', 'config', 'protocols', 'enabled', 'tags']),
  keyauth_credentials: keysOf<EntityOf<'keyauth_credentials'>>()(['id', 'created_at', 'consumer', 'key', 'tags', 'ttl']),
  basicauth_credentials: keysOf<EntityOf<'basicauth_credentials'>>()(['id', 'created_at', 'consumer', 'username', 'password', 'tags']),
  acls: keysOf<EntityOf<'acls'>>()(['id', 'created_at', 'consumer', 'group', 'tags']),
  jwt_secrets: keysOf<EntityOf<'jwt_secrets'>>()(['id', 'created_at', 'consumer', 'key', 'secret', 'rsa_public_key', 'algorithm', 'tags']),
  hmacauth_credentials: keysOf<EntityOf<'hmacauth_credentials'>>()(['id', 'created_at', 'consumer', 'username', 'secret', 'tags']),
  consumer_groups: keysOf<EntityOf<'consumer_groups'>>()(['id', 'created_at', 'updated_at', 'name', 'tags']),
  consumer_group_consumers: keysOf<EntityOf<'consumer_group_consumers'>>()(['id', 'created_at', 'consumer', 'consumer_group']),
};

const FOREIGN: Field = { type: 'foreign' };
const TABLES: { readonly [L in EntityList]: FieldTable } = {
  services: SERVICE_FIELDS(FOREIGN),
  routes: ROUTE_FIELDS(FOREIGN),
  upstreams: UPSTREAM_FIELDS(FOREIGN),
  targets: TARGET_FIELDS(FOREIGN),
  certificates: CERTIFICATE_FIELDS,
  snis: SNI_FIELDS(FOREIGN),
  consumers: CONSUMER_FIELDS,
  plugins: pluginSchema(FOREIGN, new Set(PLUGIN_SCHEMAS.keys())).fields,
  keyauth_credentials: keyauthCredentialSchema(FOREIGN).fields,
  basicauth_credentials: basicauthCredentialSchema(FOREIGN).fields,
  acls: aclSchema(FOREIGN).fields,
  jwt_secrets: jwtSecretSchema(FOREIGN).fields,
  hmacauth_credentials: hmacauthCredentialSchema(FOREIGN).fields,
  consumer_groups: CONSUMER_GROUP_FIELDS,
  consumer_group_consumers: consumerGroupConsumerSchema(FOREIGN).fields,
};

test('each entity type has exactly the fields of its table', () => {
  for (const list of ENTITY_LISTS) {
    assert.deepEqual([...TYPE_KEYS[list]].sort(), TABLES[list].map(([name]) => name).sort(), list);
  }
});

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Problems of `value` against `field`, with the path to them; [] when it is of the stated kind. */
function kindProblems(field: Field, value: unknown, path: string): string[] {
  if (value === null || value === undefined) return field.required === true ? [`${path}: required but ${String(value)}`] : [];
  const ok = ((): boolean => {
    switch (field.type) {
      case 'string': return typeof value === 'string';
      case 'integer': return Number.isInteger(value);
      case 'number': return typeof value === 'number';
      case 'boolean': return typeof value === 'boolean';
      case 'array':
      case 'set': return Array.isArray(value);
      case 'map':
      case 'record': return isPlainObject(value);
      case 'foreign': return isPlainObject(value) && typeof value.id === 'string' && Object.keys(value).length === 1;
    }
  })();
  if (!ok) return [`${path}: expected ${field.type}, got ${JSON.stringify(value)}`];
  if (field.type === 'record' && field.record !== undefined) return recordProblems(field.record.fields, value as Record<string, unknown>, path);
  if ((field.type === 'array' || field.type === 'set') && field.elements !== undefined) {
    return (value as unknown[]).flatMap((v, i) => kindProblems(field.elements!, v, `${path}[${i}]`));
  }
  return [];
}

function recordProblems(table: FieldTable, value: Record<string, unknown>, path: string): string[] {
  const names = table.map(([name]) => name);
  const problems = Object.keys(value).filter((k) => !names.includes(k)).map((k) => `${path}.${k}: not in the table`);
  for (const [name, field] of table) {
    // Every field is filled, null when unset; a field Kong leaves out when unset (ttl) may be absent.
    if (name in value) problems.push(...kindProblems(field, value[name], `${path}.${name}`));
    else if (field.omitWhenNull !== true) problems.push(`${path}.${name}: missing (every field is filled, null when unset)`);
  }
  return problems;
}

test('a loaded configuration holds every field of every entity, of the kind its table states', () => {
  const pem = issueCertificate({ commonName: 'a.test', dnsNames: ['a.test'] });
  const indent = (text: string, n: number) => text.trim().split('\n').join('\n' + ' '.repeat(n));
  const snapshot = parseDeclarativeConfig(`_format_version: "3.0"
certificates:
  - cert: |
      ${indent(pem.certPem, 6)}
    key: |
      ${indent(pem.keyPem, 6)}
    snis: [{ name: a.test }]
upstreams:
  - name: u.test
    healthchecks: { active: { healthy: { interval: 5 } } }
    targets: [{ target: 127.0.0.1:8000 }]
services:
  - name: s
    host: u.test
    routes:
      - name: r
        paths: [/]
        plugins: [{ name: key-auth }]
consumer_groups:
  - name: gold
consumers:
  - username: bob
    groups: [{ name: gold }]
    keyauth_credentials: [{ key: k }, { key: k2, ttl: 4102444800 }]
    basicauth_credentials: [{ username: bob, password: p }]
    acls: [{ group: g }]
    jwt_secrets: [{ key: j, secret: s }]
    hmacauth_credentials: [{ username: bob, secret: s }]
`);
  const problems: string[] = [];
  for (const list of ENTITY_LISTS) {
    const entities = snapshot[list] as readonly object[];
    assert.ok(entities.length > 0, `the fixture has ${list}`);
    const table = list === 'plugins'
      ? pluginSchema(FOREIGN, new Set(PLUGIN_SCHEMAS.keys())).subschemas!.find('key-auth')!.fields
      : TABLES[list];
    entities.forEach((e, i) => problems.push(...recordProblems(table, e as Record<string, unknown>, `${list}[${i}]`)));
  }
  assert.deepEqual(problems, []);
});
