// The declarative configuration's own schema (kong/db/schema/others/declarative_config.lua):
// top-level lists of entities; children nested in their parent (routes and plugins in
// services, plugins in routes, plugins and credentials in consumers, plugins in consumer
// groups, targets in upstreams, snis in certificates) get their parent's key (one they write
// must name an existing entity, and the parent's wins); foreign keys are references by name,
// id or {id}. Every entity may carry `_comment` and `_ignore`. Plugins are validated
// against the schema of their name, among the plugins enabled for this load.
import type { Field, FieldTable, RecordSchema } from './schema.ts';
import { NESTED_FOREIGN, topLevelForeign } from './entities/common.ts';
import { serviceSchema } from './entities/service.ts';
import { routeSchema } from './entities/route.ts';
import { upstreamSchema } from './entities/upstream.ts';
import { targetSchema } from './entities/target.ts';
import { CERTIFICATE_SCHEMA } from './entities/certificate.ts';
import { sniSchema } from './entities/sni.ts';
import { CONSUMER_SCHEMA } from './entities/consumer.ts';
import { pluginSchema } from './entities/plugin.ts';
import { aclSchema, basicauthCredentialSchema, hmacauthCredentialSchema, keyauthCredentialSchema } from './entities/credentials.ts';
import { jwtSecretSchema } from './entities/jwt-secret.ts';
import { CONSUMER_GROUP_SCHEMA, GROUP_REFERENCE, consumerGroupConsumerSchema } from './entities/consumer-group.ts';

/** The entity lists this gateway reads, in Kong's topological order. */
export const ENTITY_TYPES = [
  'consumer_groups', 'consumers', 'certificates', 'services', 'routes', 'snis', 'upstreams', 'targets', 'plugins',
  'keyauth_credentials', 'basicauth_credentials', 'acls', 'jwt_secrets', 'hmacauth_credentials', 'consumer_group_consumers',
] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Kong entities this gateway does not implement: rejected, never silently ignored. */
export const UNSUPPORTED_TYPES = [
  'ca_certificates', 'workspaces', 'vaults', 'keys', 'key_sets', 'parameters', 'filter_chains',
  'clustering_data_planes', 'oauth2_credentials',
] as const;

/** Error text for an unsupported entity list (top level or nested). */
export const unsupportedMessage = (key: string): string =>
  `'${key}' entities are not supported by this gateway yet; remove them`;

/** Nesting: parent list → its children, each [child list, the child's foreign field naming the parent]. */
export const NESTING: Readonly<Partial<Record<EntityType, readonly (readonly [EntityType, string])[]>>> = {
  services: [['routes', 'service'], ['plugins', 'service']],
  routes: [['plugins', 'route']],
  consumers: [['plugins', 'consumer'], ['keyauth_credentials', 'consumer'], ['basicauth_credentials', 'consumer'], ['acls', 'consumer'], ['jwt_secrets', 'consumer'], ['hmacauth_credentials', 'consumer']],
  upstreams: [['targets', 'upstream']],
  certificates: [['snis', 'certificate']],
  consumer_groups: [['plugins', 'consumer_group']],
};

/** Unsupported lists a parent may nest (refused by name, like at the top level). */
const NESTED_UNSUPPORTED: Readonly<Partial<Record<EntityType, readonly string[]>>> = {
  services: ['filter_chains'],
  routes: ['filter_chains'],
  consumers: ['oauth2_credentials'],
};

/** Each entity's foreign fields and what they reference (for top-level references). */
export const FOREIGN_KEYS: Readonly<Record<EntityType, Readonly<Record<string, EntityType>>>> = {
  consumers: {},
  certificates: {},
  services: { client_certificate: 'certificates' },
  routes: { service: 'services' },
  snis: { certificate: 'certificates' },
  upstreams: { client_certificate: 'certificates' },
  targets: { upstream: 'upstreams' },
  plugins: { route: 'routes', service: 'services', consumer: 'consumers', consumer_group: 'consumer_groups' },
  keyauth_credentials: { consumer: 'consumers' },
  basicauth_credentials: { consumer: 'consumers' },
  acls: { consumer: 'consumers' },
  jwt_secrets: { consumer: 'consumers' },
  hmacauth_credentials: { consumer: 'consumers' },
  consumer_groups: {},
  consumer_group_consumers: { consumer: 'consumers', consumer_group: 'consumer_groups' },
};

/** Kong's endpoint_key when it is unique: the name references use and uniqueness is checked on. */
export const ENDPOINT_KEYS: Readonly<Partial<Record<EntityType, string>>> = {
  services: 'name',
  routes: 'name',
  snis: 'name',
  upstreams: 'name',
  consumers: 'username',
  consumer_groups: 'name',
  // plugins.lua: endpoint_key instance_name, a unique utf8_name.
  plugins: 'instance_name',
  keyauth_credentials: 'key',
  basicauth_credentials: 'username',
  jwt_secrets: 'key',
  hmacauth_credentials: 'username',
};

/** Other unique fields, checked after the endpoint key. */
export const UNIQUE_FIELDS: Readonly<Partial<Record<EntityType, readonly string[]>>> = {
  consumers: ['custom_id'],
};

/** Fields a record may have in the file that are not part of the entity (children, comments). */
export function declarativeOnlyFields(type: EntityType): ReadonlySet<string> {
  return new Set(['_comment', '_ignore', ...(NESTING[type] ?? []).map(([c]) => c), ...(NESTED_UNSUPPORTED[type] ?? []), ...(type === 'consumers' ? ['groups'] : [])]);
}

const EXTRA: FieldTable = [
  ['_comment', { type: 'string' }],
  ['_ignore', { type: 'array' }],
];

const unsupported = (key: string): Field => ({ type: 'array', custom: () => unsupportedMessage(key) });

// A foreign key that must name an entity at the top level (a credential's consumer).
const REQUIRED_AT_TOP: ReadonlySet<EntityType> = new Set(['targets', 'snis', 'keyauth_credentials', 'basicauth_credentials', 'acls', 'jwt_secrets', 'hmacauth_credentials', 'consumer_group_consumers']);

type Schemas = {
  top: Record<EntityType, RecordSchema>;
  nested: Record<EntityType, RecordSchema>;
  pluginsUnderConsumer: RecordSchema;
  pluginsUnderConsumerGroup: RecordSchema;
};

function base(type: EntityType, foreign: Field, enabled: ReadonlySet<string>): RecordSchema {
  switch (type) {
    case 'services':
      return serviceSchema(foreign);
    case 'routes':
      return routeSchema(foreign);
    case 'upstreams':
      return upstreamSchema(foreign);
    case 'targets':
      return targetSchema(foreign);
    case 'certificates':
      return CERTIFICATE_SCHEMA;
    case 'snis':
      return sniSchema(foreign);
    case 'consumers':
      return CONSUMER_SCHEMA;
    case 'plugins':
      return pluginSchema(foreign, enabled);
    case 'keyauth_credentials':
      return keyauthCredentialSchema(foreign);
    case 'basicauth_credentials':
      return basicauthCredentialSchema(foreign);
    case 'acls':
      return aclSchema(foreign);
    case 'jwt_secrets':
      return jwtSecretSchema(foreign);
    case 'hmacauth_credentials':
      return hmacauthCredentialSchema(foreign);
    case 'consumer_groups':
      return CONSUMER_GROUP_SCHEMA;
    case 'consumer_group_consumers':
      return consumerGroupConsumerSchema(foreign);
  }
}

// `_comment`/`_ignore` on every record, subschemas (each plugin's) included.
function withExtras(schema: RecordSchema, more: readonly (readonly [string, Field])[] = []): RecordSchema {
  const sub = schema.subschemas;
  if (sub === undefined) return { ...schema, fields: [...schema.fields, ...more, ...EXTRA] };
  const wrapped = new Map<string, RecordSchema | undefined>();
  return {
    ...schema,
    fields: [...schema.fields, ...more, ...EXTRA],
    subschemas: {
      ...sub,
      find: (name) => {
        if (!wrapped.has(name)) {
          const found = sub.find(name);
          wrapped.set(name, found === undefined ? undefined : withExtras(found, more));
        }
        return wrapped.get(name);
      },
    },
  };
}

function build(type: EntityType, nested: boolean, enabled: ReadonlySet<string>, schemas: Schemas): RecordSchema {
  const foreign = nested ? NESTED_FOREIGN : topLevelForeign(!nested && REQUIRED_AT_TOP.has(type));
  const schema = base(type, foreign, enabled);
  // Every foreign key of a nested child, its parent's and the others, may name an existing
  // entity (copy_record, then the full-schema validation); NESTED_FOREIGN.
  const fields: [string, Field][] = schema.fields.map(([name, field]) =>
    nested && field.type === 'foreign' ? [name, NESTED_FOREIGN] : [name, field],
  );
  const more: [string, Field][] = [];
  for (const [child] of NESTING[type] ?? []) {
    const record = child !== 'plugins' ? schemas.nested[child]
      : type === 'consumers' ? schemas.pluginsUnderConsumer : type === 'consumer_groups' ? schemas.pluginsUnderConsumerGroup : schemas.nested[child];
    more.push([child, { type: 'array', elements: { type: 'record', record } }]);
  }
  // decK's consumer membership: `groups: [{ name }]` (or `{ id }`) on a consumer.
  if (type === 'consumers') more.push(['groups', { type: 'array', elements: { type: 'record', record: GROUP_REFERENCE } }]);
  for (const key of NESTED_UNSUPPORTED[type] ?? []) more.push([key, unsupported(key)]);
  return withExtras({ ...schema, fields }, more);
}

function buildAll(enabled: ReadonlySet<string>): Schemas {
  const schemas: Schemas = {
    top: {} as Record<EntityType, RecordSchema>,
    nested: {} as Record<EntityType, RecordSchema>,
    pluginsUnderConsumer: withExtras(pluginSchema(NESTED_FOREIGN, enabled, 'consumer')),
    pluginsUnderConsumerGroup: withExtras(pluginSchema(NESTED_FOREIGN, enabled, 'consumer_group')),
  };
  // Children first: a parent's schema embeds its child's nested schema.
  const order: EntityType[] = ['plugins', 'keyauth_credentials', 'basicauth_credentials', 'acls', 'jwt_secrets', 'hmacauth_credentials', 'consumer_group_consumers', 'consumer_groups', 'routes', 'targets', 'snis', 'certificates', 'services', 'upstreams', 'consumers'];
  for (const type of order) {
    schemas.nested[type] = build(type, true, enabled, schemas);
    schemas.top[type] = build(type, false, enabled, schemas);
  }
  return schemas;
}

const cache = new Map<string, Schemas>();

/** The schemas of every entity for a load with these plugins enabled (built once per set). */
function schemasFor(enabled: ReadonlySet<string>): Schemas {
  const key = [...enabled].sort().join(',');
  let schemas = cache.get(key);
  if (schemas === undefined) {
    schemas = buildAll(enabled);
    cache.set(key, schemas);
  }
  return schemas;
}

/** The record schema of an entity at the top level or nested in its parent (`parent` matters for plugins). */
export function entitySchema(type: EntityType, enabled: ReadonlySet<string>, nestedIn?: EntityType): RecordSchema {
  const schemas = schemasFor(enabled);
  if (nestedIn === undefined) return schemas.top[type];
  if (type === 'plugins' && nestedIn === 'consumers') return schemas.pluginsUnderConsumer;
  return type === 'plugins' && nestedIn === 'consumer_groups' ? schemas.pluginsUnderConsumerGroup : schemas.nested[type];
}
