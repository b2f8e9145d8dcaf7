// Phase 2 of Kong's declarative flatten, on a configuration that passed schema validation:
// derive ids (generate_ids), check uniqueness of names and ids (populate_references), resolve
// references by name, id or {id} (validate_references), and build the final entities.
import type { Snapshot } from './types.ts';
import type { ErrTable, Input, RecordSchema } from './schema.ts';
import { applyDefaults } from './schema.ts';
import { deriveEntityId } from './uuid-v5.ts';
import { ENTITY_TYPES, FOREIGN_KEYS, NESTING, entitySchema, type EntityType } from './declarative-schema.ts';

type Entities = Omit<Snapshot, 'hash'>;
type Options = { readonly now: number; readonly randomId: () => string };

/** An entity after defaults and id derivation, with where it sits in the file. */
type Item = {
  readonly type: EntityType;
  readonly value: Input;
  readonly id: string;
  /** The parent's id when nested. */
  readonly parentId?: string;
};

const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);

// Fields that are declarative-only and never part of an entity.
const NOT_ENTITY_FIELDS = new Set(['_comment', '_ignore', 'plugins']);

function normalize(schema: RecordSchema, input: Input): Input {
  return applyDefaults(schema, schema.shorthands === undefined ? input : schema.shorthands(input, new Map()));
}

function uniquenessMessage(type: string, key: string, value: string): string {
  return `uniqueness violation: '${type}' entity with ${key} set to '${value}' already declared`;
}

// get_key_for_uuid_gen: targets by cache key "targets:<ws>:<upstream>:<target>" (the upstream
// as written, or the parent's id when nested); others by their unique name; else random.
function deriveId(type: EntityType, value: Input, parentId: string | undefined, randomId: () => string): string {
  if (typeof value.id === 'string') return value.id;
  if (type === 'targets') {
    const parts = ['targets', '*'];
    if (typeof value.upstream === 'string') parts.push(value.upstream);
    else if (value.upstream === null && parentId !== undefined) parts.push(parentId);
    parts.push(value.target as string);
    return deriveEntityId('targets', parts.join(':'));
  }
  if (type !== 'certificates' && typeof value.name === 'string') return deriveEntityId(type, value.name);
  return randomId();
}

/** Ids, uniqueness, references and final entities; `errors` in Kong's tree when something clashes. */
/** Where a name- or id-keyed reference error points: `${type}:${key}` → index in the top-level list. */
export type ErrorPlaces = ReadonlyMap<string, number>;

export function resolveEntities(
  config: Input,
  options: Options,
): { entities: Entities; errors?: undefined } | { errors: ErrTable; places: ErrorPlaces; entities?: undefined } {
  const errors: ErrTable = new Map();
  const byId = new Map<EntityType, Map<string, Item>>();
  const byName = new Map<EntityType, Map<string, Item>>();
  const items = new Map<EntityType, Item[]>(ENTITY_TYPES.map((t) => [t, []]));
  const expected: { item: Item; index: number; field: string; ref: EntityType; value: unknown }[] = [];
  const places = new Map<string, number>();

  const setError = (path: (string | number)[], message: string): void => {
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
  };

  // populate_references: children are registered before their parent, each list in file order.
  const register = (type: EntityType, raw: Input, path: (string | number)[], parentId: string | undefined): Item => {
    const value = normalize(entitySchema(type, parentId !== undefined), raw);
    const item: Item = { type, value, id: deriveId(type, value, parentId, options.randomId), ...(parentId === undefined ? {} : { parentId }) };
    const nesting = NESTING[type];
    if (nesting !== undefined && Array.isArray(raw[nesting[0]])) {
      (raw[nesting[0]] as Input[]).forEach((child, j) => register(nesting[0], child, [...path, nesting[0], j + 1], item.id));
    }
    let failed = false;
    if (type !== 'certificates' && type !== 'targets' && typeof value.name === 'string') {
      const names = byName.get(type) ?? new Map<string, Item>();
      byName.set(type, names);
      if (names.has(value.name)) {
        setError(path, uniquenessMessage(type, 'name', value.name));
        failed = true;
      } else names.set(value.name, item);
    }
    const ids = byId.get(type) ?? new Map<string, Item>();
    byId.set(type, ids);
    if (!failed && ids.has(item.id)) setError(path, uniquenessMessage(type, 'primary key', item.id));
    else if (!failed) ids.set(item.id, item);
    if (parentId === undefined) {
      for (const [field, ref] of Object.entries(FOREIGN_KEYS[type])) {
        if (value[field] !== null && value[field] !== undefined) expected.push({ item, index: (path[1] as number) - 1, field, ref, value: value[field] });
      }
    }
    (items.get(type) as Item[]).push(item);
    return item;
  };

  for (const type of ENTITY_TYPES) {
    const list = config[type];
    if (Array.isArray(list)) (list as Input[]).forEach((raw, i) => register(type, raw, [type, i + 1], undefined));
  }

  const resolved = new Map<Item, Map<string, string>>();
  for (const { item, index, field, ref, value } of expected) {
    const key = isRecord(value) ? (value.id as string) : (value as string);
    const found = byName.get(ref)?.get(key) ?? byId.get(ref)?.get(key);
    if (found === undefined) {
      const at = typeof item.value.name === 'string' && item.type !== 'targets' ? item.value.name : item.id;
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      places.set(`${item.type}:${at}`, index);
      const list = (errors.get(item.type) as ErrTable | undefined) ?? new Map();
      errors.set(item.type, list);
      const messages = (list.get(at) as ErrTable | undefined) ?? new Map();
      list.set(at, messages);
      messages.set(messages.size + 1, `invalid reference '${field}: ${shown}' (no such entry in '${ref}')`);
      continue;
    }
    const refs = resolved.get(item) ?? new Map<string, string>();
    refs.set(field, found.id);
    resolved.set(item, refs);
  }
  if (errors.size > 0) return { errors, places };

  const build = (item: Item): Input => {
    const out: Input = { id: item.id };
    const timestamp = item.type === 'targets' ? Math.round(options.now * 1000) / 1000 : Math.floor(options.now);
    for (const [name] of entitySchema(item.type, item.parentId !== undefined).fields) {
      if (name === 'id' || NOT_ENTITY_FIELDS.has(name) || NESTING[item.type]?.[0] === name) continue;
      const v = item.value[name];
      if (name === 'created_at' || name === 'updated_at') out[name] = typeof v === 'number' ? v : timestamp;
      else if (name in FOREIGN_KEYS[item.type]) {
        const refId = item.parentId ?? resolved.get(item)?.get(name);
        out[name] = refId === undefined ? null : { id: refId };
      } else out[name] = v === undefined ? null : v;
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
    } as Entities,
  };
}
