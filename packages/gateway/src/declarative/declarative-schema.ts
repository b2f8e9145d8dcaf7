// The declarative configuration's own schema (kong/db/schema/others/declarative_config.lua):
// top-level lists of entities; children nested in their parent (routes in services, targets
// in upstreams, snis in certificates) may not set any foreign key; top-level foreign keys are
// references by name, id or {id}. Every entity may carry `_comment` and `_ignore`.
import type { Field, FieldTable, RecordSchema } from './schema.ts';
import { NESTED_FOREIGN, topLevelForeign } from './entities/common.ts';
import { serviceSchema } from './entities/service.ts';
import { routeSchema } from './entities/route.ts';
import { upstreamSchema } from './entities/upstream.ts';
import { targetSchema } from './entities/target.ts';
import { CERTIFICATE_SCHEMA } from './entities/certificate.ts';
import { sniSchema } from './entities/sni.ts';

/** The entity lists this gateway reads, in Kong's topological order. */
export const ENTITY_TYPES = ['certificates', 'services', 'routes', 'snis', 'upstreams', 'targets'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** Kong core entities this gateway does not implement: rejected, never silently ignored. */
export const UNSUPPORTED_TYPES = [
  'consumers', 'plugins', 'ca_certificates', 'workspaces', 'vaults', 'keys', 'key_sets', 'parameters',
  'filter_chains', 'clustering_data_planes', 'keyauth_credentials', 'basicauth_credentials', 'acls',
  'jwt_secrets', 'hmacauth_credentials', 'oauth2_credentials',
] as const;

/** Error text for an unsupported entity list (top level or nested). */
export const unsupportedMessage = (key: string): string =>
  `'${key}' entities are not supported by this gateway (no plugins or consumers); remove them`;

/** Nesting: parent list → [child list, the child's foreign field naming the parent]. */
export const NESTING: Readonly<Partial<Record<EntityType, readonly [EntityType, string]>>> = {
  services: ['routes', 'service'],
  upstreams: ['targets', 'upstream'],
  certificates: ['snis', 'certificate'],
};

/** Each entity's foreign fields and what they reference (for top-level references). */
export const FOREIGN_KEYS: Readonly<Record<EntityType, Readonly<Record<string, EntityType>>>> = {
  certificates: {},
  services: { client_certificate: 'certificates' },
  routes: { service: 'services' },
  snis: { certificate: 'certificates' },
  upstreams: { client_certificate: 'certificates' },
  targets: { upstream: 'upstreams' },
};

const EXTRA: FieldTable = [
  ['_comment', { type: 'string' }],
  ['_ignore', { type: 'array' }],
];

const unsupported = (key: string): Field => ({ type: 'array', custom: () => unsupportedMessage(key) });

function base(type: EntityType, nested: boolean): RecordSchema {
  const required = !nested && (type === 'targets' || type === 'snis');
  const foreign = nested ? NESTED_FOREIGN : topLevelForeign(required);
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
  }
}

function build(type: EntityType, nested: boolean): RecordSchema {
  const schema = base(type, nested);
  // A nested child's foreign key to its parent is set by the parent; every other foreign key
  // of a nested child is forbidden too (copy_record: eq = null).
  const fields: [string, Field][] = schema.fields.map(([name, field]) =>
    nested && field.type === 'foreign' ? [name, NESTED_FOREIGN] : [name, field],
  );
  const childList = NESTING[type];
  if (childList !== undefined) {
    fields.push([childList[0], { type: 'array', elements: { type: 'record', record: SCHEMAS.nested[childList[0]] } }]);
  }
  if (type === 'services' || type === 'routes') fields.push(['plugins', unsupported('plugins')]);
  return { ...schema, fields: [...fields, ...EXTRA] };
}

const SCHEMAS: { top: Record<EntityType, RecordSchema>; nested: Record<EntityType, RecordSchema> } = {
  top: {} as Record<EntityType, RecordSchema>,
  nested: {} as Record<EntityType, RecordSchema>,
};
// Children first: a parent's schema embeds its child's nested schema.
for (const type of ['routes', 'targets', 'snis', 'certificates', 'services', 'upstreams'] as const) {
  SCHEMAS.nested[type] = build(type, true);
  SCHEMAS.top[type] = build(type, false);
}

/** The record schema of an entity at the top level or nested in its parent. */
export function entitySchema(type: EntityType, nested = false): RecordSchema {
  return nested ? SCHEMAS.nested[type] : SCHEMAS.top[type];
}
