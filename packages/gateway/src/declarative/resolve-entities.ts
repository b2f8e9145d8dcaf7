// Phase 2 of Kong's declarative flatten, on a configuration that passed schema validation:
// derive ids (generate_ids), check uniqueness of endpoint keys and ids (populate_references),
// resolve references by name, id or {id} (validate_references), then the other unique fields
// (flatten's own loop, only when all that passed), run the transformations (basic-auth password
// hashing, unless `_transform: false`), and build the final entities.
//
// A nested child may name its parent (or any foreign entity) too: Kong's second, full-schema
// validation takes a name or id that names an existing entity and refuses one that names
// nothing ("value must be null", a schema error), a written {id} is checked with the other
// references, and the parent's key wins (populate_references sets it last).
import { createHash } from 'node:crypto';
import type { Snapshot } from './types.ts';
import type { ErrTable, Input, RecordSchema } from './schema.ts';
import { applyDefaults, effectiveSchema } from './schema.ts';
import { deriveEntityId } from './uuid-v5.ts';
import { ENDPOINT_KEYS, ENTITY_TYPES, FOREIGN_KEYS, NESTING, UNIQUE_FIELDS, declarativeOnlyFields, entitySchema, type EntityType } from './declarative-schema.ts';

type Entities = Omit<Snapshot, 'hash'>;
type Options = {
  readonly now: number;
  readonly randomId: () => string;
  /** The plugins this load accepts. */
  readonly enabledPlugins: ReadonlySet<string>;
  /** Kong's `_transform` (default true): hash basic-auth passwords as they load. */
  readonly transform: boolean;
};

/** Where an entity sits in Kong's error tree: list, position, child list, position, … (1-based). */
export type TreePath = readonly (string | number)[];

/** Where a nested entity sits: its parent's list, id, and the child's field naming the parent. */
type Parent = { readonly type: EntityType; readonly id: string; readonly field: string; readonly derived: boolean };

/** An entity after defaults and id derivation, with where it sits in the file. */
type Item = {
  readonly type: EntityType;
  readonly value: Input;
  readonly id: string;
  /** The id was given or derived as Kong's generate_ids derives it (not random). */
  readonly derived: boolean;
  readonly path: TreePath;
  readonly parent?: Parent;
};

const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kong's basic-auth crypto.lua: hex SHA-1 of the password salted with the consumer id. */
export function hashBasicAuthPassword(password: string, consumerId: string): string {
  return createHash('sha1').update(password + consumerId).digest('hex');
}

function normalize(schema: RecordSchema, input: Input): Input {
  return applyDefaults(schema, schema.shorthands === undefined ? input : schema.shorthands(input, new Map()));
}

function uniquenessMessage(type: string, key: string, value: string): string {
  return `uniqueness violation: '${type}' entity with ${key} set to '${value}' already declared`;
}

// Kong's cache keys (build_cache_key): "<entity>:<ws>:<v1>:…", each value as written; the
// nesting parent's id for the parent's field; "" for an absent optional one; none (a random
// id) when a required one is missing. A reference written as {id} adds nothing, as in Kong.
const CACHE_KEYS: Readonly<Partial<Record<EntityType, readonly (readonly [string, boolean])[]>>> = {
  targets: [['upstream', true], ['target', true]],
  plugins: [['name', true], ['route', false], ['service', false], ['consumer', false]],
  acls: [['consumer', true], ['group', true]],
  basicauth_credentials: [['username', true]],
  hmacauth_credentials: [['username', true]],
  consumer_group_consumers: [['consumer_group', true], ['consumer', true]],
};

// `viaParent`: the key holds the parent's id, which Kong has only when it derived one.
function cacheKey(type: EntityType, value: Input, parent: Parent | undefined): { key: string; viaParent: boolean } | undefined {
  const parts = [type, '*'];
  let viaParent = false;
  for (const [field, required] of CACHE_KEYS[type] ?? []) {
    const v = value[field];
    if (typeof v === 'string') parts.push(v);
    else if (v === null || v === undefined) {
      if (parent?.field === field) {
        parts.push(parent.id);
        viaParent = true;
      } else if (required) return undefined;
      else parts.push('');
    }
  }
  // A plugin scoped to a consumer group: the group goes last, so unscoped plugins keep Kong's ids.
  if (type === 'plugins') {
    const group = value.consumer_group;
    if (typeof group === 'string') parts.push(group);
    else if (isRecord(group) && typeof group.id === 'string') parts.push(group.id);
    else if (parent?.field === 'consumer_group') {
      parts.push(parent.id);
      viaParent = true;
    }
  }
  return { key: parts.join(':'), viaParent };
}

// Credentials whose `key` is `auto` (generated when absent); their cache key is then no id source.
const AUTO_KEYS: ReadonlySet<EntityType> = new Set(['keyauth_credentials', 'jwt_secrets']);

// get_key_for_uuid_gen: by cache key when the entity has one (keyauth_credentials' key is
// `auto`, so theirs are random), else by the unique endpoint key, else random. `derived`: Kong
// would have this id in the file it reports errors against (generate_ids writes it there); a
// cache key through a parent with a random id is no key there, so its child's id is not either.
function deriveId(type: EntityType, value: Input, parent: Parent | undefined, randomId: () => string): { id: string; derived: boolean } {
  if (typeof value.id === 'string') return { id: value.id, derived: true };
  if (AUTO_KEYS.has(type) || type === 'certificates') return { id: randomId(), derived: false };
  if (CACHE_KEYS[type] !== undefined) {
    const key = cacheKey(type, value, parent);
    if (key === undefined) return { id: randomId(), derived: false };
    return { id: deriveEntityId(type, key.key), derived: !key.viaParent || parent?.derived === true };
  }
  const endpoint = ENDPOINT_KEYS[type];
  if (endpoint !== undefined && typeof value[endpoint] === 'string') return { id: deriveEntityId(type, value[endpoint]), derived: true };
  return { id: randomId(), derived: false };
}

/** Where an error keyed by an entity's name or id points: `${type}:${key}` → the entity's tree path. */
export type ErrorPlaces = ReadonlyMap<string, TreePath>;

/** The ids Kong's generate_ids writes into the file, by tree path ("upstreams.2.targets.1"). */
export type DerivedIds = ReadonlyMap<string, string>;

/** What failed, in Kong's tree, and what humans should also hear about. */
export type ResolveFailure = {
  readonly entities?: undefined;
  /** Kong's error tree of the first check that failed. */
  readonly errors: ErrTable;
  /**
   * `schema`: a nested child names an entity that does not exist (Kong's schema phase, reported
   * with the other schema errors); `references`: uniqueness and references (Kong's second phase).
   */
  readonly phase: 'schema' | 'references';
  /** The failures of the checks after it, which Kong reports only once this one passes. */
  readonly later: readonly ErrTable[];
  readonly places: ErrorPlaces;
  readonly ids: DerivedIds;
};

type Expected = {
  readonly item: Item;
  readonly field: string;
  readonly ref: EntityType;
  readonly value: unknown;
  /** Where a consumer's `groups` entry sits, for its error. */
  readonly at?: TreePath;
};

function setError(errors: ErrTable, path: TreePath, message: string): void {
  let node = errors;
  for (const segment of path.slice(0, -1)) {
    let next = node.get(segment);
    if (!(next instanceof Map)) {
      next = new Map();
      node.set(segment, next);
    }
    node = next;
  }
  node.set(path[path.length - 1] as string | number, message);
}

// declarative_config.lua keys an error that is not about a position by the entity's unique
// endpoint key, else its id (validate_references' `at`, flatten's unique fields).
function errorKey(item: Item): string {
  const endpoint = ENDPOINT_KEYS[item.type];
  const own = endpoint === undefined ? undefined : item.value[endpoint];
  return typeof own === 'string' ? own : item.id;
}

const section = (errors: ErrTable, type: EntityType): ErrTable => {
  const found = errors.get(type);
  if (found instanceof Map) return found;
  const created: ErrTable = new Map();
  errors.set(type, created);
  return created;
};

/** Ids, uniqueness, references and final entities; `errors` in Kong's tree when something clashes. */
export function resolveEntities(config: Input, options: Options): { entities: Entities; errors?: undefined } | ResolveFailure {
  const errors: ErrTable = new Map();
  // Nested children naming an entity that does not exist: Kong's schema phase.
  const schemaErrors: ErrTable = new Map();
  const byId = new Map<EntityType, Map<string, Item>>();
  const byKey = new Map<EntityType, Map<string, Item>>();
  const items = new Map<EntityType, Item[]>(ENTITY_TYPES.map((t) => [t, []]));
  const expected: Expected[] = [];
  const places = new Map<string, TreePath>();

  // populate_references: children are registered before their parent, each list in file order.
  const register = (type: EntityType, raw: Input, path: TreePath, parent: Parent | undefined): Item => {
    const value = normalize(entitySchema(type, options.enabledPlugins, parent?.type), raw);
    // key-auth's `key` is `auto`: generated when absent (Kong's random_string, 32 hex digits).
    if (AUTO_KEYS.has(type) && typeof value.key !== 'string') value.key = options.randomId().replace(/-/g, '');
    // jwt's and hmac-auth's `secret` are `auto` too.
    if ((type === 'jwt_secrets' || type === 'hmacauth_credentials') && typeof value.secret !== 'string') value.secret = options.randomId().replace(/-/g, '');
    const item: Item = { type, value, ...deriveId(type, value, parent, options.randomId), path, ...(parent === undefined ? {} : { parent }) };
    for (const [child, field] of NESTING[type] ?? []) {
      const list = raw[child];
      if (!Array.isArray(list)) continue;
      (list as Input[]).forEach((c, j) => register(child, c, [...path, child, j + 1], { type, id: item.id, field, derived: item.derived }));
    }
    let failed = false;
    const endpoint = ENDPOINT_KEYS[type];
    const key = endpoint === undefined ? undefined : value[endpoint];
    if (endpoint !== undefined && typeof key === 'string') {
      const keys = byKey.get(type) ?? new Map<string, Item>();
      byKey.set(type, keys);
      if (keys.has(key)) {
        setError(errors, path, uniquenessMessage(type, endpoint, key));
        failed = true;
      } else keys.set(key, item);
    }
    const ids = byId.get(type) ?? new Map<string, Item>();
    byId.set(type, ids);
    if (!failed && ids.has(item.id)) {
      setError(errors, path, uniquenessMessage(type, 'primary key', item.id));
      failed = true;
    } else if (!failed) ids.set(item.id, item);
    // Every foreign key written, a nested child's included (the parent's own is checked too).
    for (const [field, ref] of Object.entries(FOREIGN_KEYS[type])) {
      if (value[field] !== null && value[field] !== undefined) expected.push({ item, field, ref, value: value[field] });
    }
    (items.get(type) as Item[]).push(item);
    if (type === 'consumers' && Array.isArray(raw.groups)) registerMemberships(item, raw.groups as Input[], path);
    return item;
  };

  // decK's `groups: [{ name }]` on a consumer: one membership each, its group a reference.
  const registerMemberships = (consumer: Item, groups: Input[], path: TreePath): void => {
    const ids = byId.get('consumer_group_consumers') ?? new Map<string, Item>();
    byId.set('consumer_group_consumers', ids);
    groups.forEach((entry, j) => {
      const ref = typeof entry.id === 'string' ? { id: entry.id } : entry.name;
      const at = [...path, 'groups', j + 1];
      const parent: Parent = { type: 'consumers', id: consumer.id, field: 'consumer', derived: consumer.derived };
      const value: Input = { consumer_group: ref };
      const key = `consumer_group_consumers:*:${typeof ref === 'string' ? ref : String(entry.id)}:${consumer.id}`;
      const item: Item = { type: 'consumer_group_consumers', value, id: deriveEntityId('consumer_group_consumers', key), derived: false, path: at, parent };
      if (ids.has(item.id)) {
        setError(errors, at, uniquenessMessage('consumer_group_consumers', 'primary key', item.id));
        return;
      }
      ids.set(item.id, item);
      expected.push({ item, field: 'consumer_group', ref: 'consumer_groups', value: ref, at });
      (items.get('consumer_group_consumers') as Item[]).push(item);
    });
  };

  for (const type of ENTITY_TYPES) {
    const list = config[type];
    if (Array.isArray(list)) (list as Input[]).forEach((raw, i) => register(type, raw, [type, i + 1], undefined));
  }

  const resolved = new Map<Item, Map<string, string>>();
  for (const { item, field, ref, value, at } of expected) {
    const key = isRecord(value) ? (value.id as string) : (value as string);
    const found = byKey.get(ref)?.get(key) ?? byId.get(ref)?.get(key);
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    if (found === undefined && at !== undefined) {
      setError(errors, at, `invalid reference '${field}: ${shown}' (no such entry in '${ref}')`);
    } else if (found === undefined && item.parent !== undefined && typeof value === 'string') {
      // The full-schema validation finds no entity for this name or id: the first one's error stays.
      setError(schemaErrors, [...item.path, field], 'value must be null');
    } else if (found === undefined) {
      const where = errorKey(item);
      places.set(`${item.type}:${where}`, item.path);
      const list = section(errors, item.type);
      const messages = (list.get(where) as ErrTable | undefined) ?? new Map();
      list.set(where, messages);
      messages.set(messages.size + 1, `invalid reference '${field}: ${shown}' (no such entry in '${ref}')`);
    } else if (item.parent?.field !== field) {
      // A nested child's key to its parent is the parent's, whatever it names.
      const refs = resolved.get(item) ?? new Map<string, string>();
      refs.set(field, found.id);
      resolved.set(item, refs);
    }
  }

  // flatten's loop over the other unique fields (custom_id), keyed like the references.
  const uniqueErrors: ErrTable = new Map();
  for (const type of ENTITY_TYPES) {
    for (const field of UNIQUE_FIELDS[type] ?? []) {
      const seen = new Set<string>();
      for (const item of items.get(type) as Item[]) {
        const v = item.value[field];
        if (typeof v !== 'string') continue;
        if (!seen.has(v)) {
          seen.add(v);
          continue;
        }
        const where = errorKey(item);
        places.set(`${type}:${where}`, item.path);
        section(uniqueErrors, type).set(where, uniquenessMessage(type, field, v));
      }
    }
  }

  const failures = [schemaErrors, errors, uniqueErrors].filter((t) => t.size > 0);
  if (failures.length > 0) {
    const ids = new Map<string, string>();
    for (const list of items.values()) for (const item of list) if (item.derived) ids.set(item.path.join('.'), item.id);
    return { errors: failures[0] as ErrTable, phase: schemaErrors.size > 0 ? 'schema' : 'references', later: failures.slice(1), places, ids };
  }

  const build = (item: Item): Input => {
    const out: Input = { id: item.id };
    const timestamp = item.type === 'targets' ? Math.round(options.now * 1000) / 1000 : Math.floor(options.now);
    const schema = effectiveSchema(entitySchema(item.type, options.enabledPlugins, item.parent?.type), item.value);
    const skipped = declarativeOnlyFields(item.type);
    for (const [name, field] of schema.fields) {
      if (name === 'id' || skipped.has(name)) continue;
      const v = item.value[name];
      if (field.omitWhenNull === true && (v === null || v === undefined)) continue;
      if (name === 'created_at' || name === 'updated_at') out[name] = typeof v === 'number' ? v : timestamp;
      else if (name in FOREIGN_KEYS[item.type]) {
        const refId = item.parent?.field === name ? item.parent.id : resolved.get(item)?.get(name);
        out[name] = refId === undefined ? null : { id: refId };
      } else out[name] = v === undefined ? null : v;
    }
    if (item.type === 'basicauth_credentials' && options.transform) {
      out.password = hashBasicAuthPassword(out.password as string, (out.consumer as { id: string }).id);
    }
    return out;
  };
  const list = (type: EntityType): unknown => (items.get(type) as Item[]).map(build);
  return {
    entities: {
      services: list('services'),
      routes: list('routes'),
      upstreams: list('upstreams'),
      targets: list('targets'),
      certificates: list('certificates'),
      snis: list('snis'),
      consumers: list('consumers'),
      plugins: list('plugins'),
      keyauth_credentials: list('keyauth_credentials'),
      basicauth_credentials: list('basicauth_credentials'),
      acls: list('acls'),
      jwt_secrets: list('jwt_secrets'),
      hmacauth_credentials: list('hmacauth_credentials'),
      consumer_groups: list('consumer_groups'),
      consumer_group_consumers: list('consumer_group_consumers'),
    } as Entities,
  };
}
