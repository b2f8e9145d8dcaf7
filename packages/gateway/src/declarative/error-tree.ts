// Kong's declarative error output from its raw error tree (kong/db/errors.lua): `fields` as
// lua-cjson encodes the Lua table, `message` as pl.pretty.write renders it, and the
// `flattened_errors` list of declarative_config_flattened.
import type { ErrTable, ErrValue } from './schema.ts';
import { NESTING } from './declarative-schema.ts';

const isArrayLike = (t: ErrTable): boolean =>
  t.size > 0 && [...t.keys()].every((k) => typeof k === 'number' && Number.isInteger(k) && k >= 1 && k <= 32768);

const sortKeys = (keys: (string | number)[]): (string | number)[] =>
  keys.sort((a, b) => {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    if (typeof a === 'number') return -1;
    if (typeof b === 'number') return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });

/** lua-cjson with sparse arrays encoded as arrays: 1..n keys → JSON array with null holes. */
export function errorsToJson(value: ErrValue): unknown {
  if (typeof value === 'string') return value;
  if (isArrayLike(value)) {
    const max = Math.max(...([...value.keys()] as number[]));
    return Array.from({ length: max }, (_, i) => {
      const v = value.get(i + 1);
      return v === undefined ? null : errorsToJson(v);
    });
  }
  const out: Record<string, unknown> = {};
  for (const k of sortKeys([...value.keys()])) out[String(k)] = errorsToJson(value.get(k) as ErrValue);
  return out;
}

const LUA_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const luaString = (s: string): string => `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;

/** pl.pretty.write(t, ""): `{a="x",{…},[3]="y"}` with the sequence part first. */
export function errorsToLua(value: ErrValue): string {
  if (typeof value === 'string') return luaString(value);
  const parts: string[] = [];
  let next = 1;
  for (const k of sortKeys([...value.keys()])) {
    const v = errorsToLua(value.get(k) as ErrValue);
    if (typeof k === 'number') {
      parts.push(k === next ? v : `[${k}]=${v}`);
      if (k === next) next++;
    } else {
      parts.push(LUA_IDENTIFIER.test(k) ? `${k}=${v}` : `[${luaString(k)}]=${v}`);
    }
  }
  return `{${parts.join(',')}}`;
}

/** One entry of Kong's `flattened_errors`. */
export type FlattenedError = {
  entity_type: string;
  entity_id?: string;
  entity_name?: string;
  entity_tags?: string[];
  entity: Record<string, unknown>;
  errors: ({ type: 'entity'; message: string } | { type: 'field'; field: string; message: string })[];
};

/** Parent → nested children (key, foreign field): what add_entity_errors hoists. */
const NESTED: Readonly<Record<string, readonly (readonly [string, string])[]>> = NESTING;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function categorize(errs: ErrTable, ns: string | undefined, out: FlattenedError['errors']): void {
  for (const k of sortKeys([...errs.keys()])) {
    const v = errs.get(k) as ErrValue;
    const field = ns === undefined ? String(k) : `${ns}.${String(k)}`;
    if (k === '@entity') {
      if (typeof v === 'string') out.push({ type: 'entity', message: v });
      else for (const m of v.values()) if (typeof m === 'string') out.push({ type: 'entity', message: m });
    } else if (typeof v === 'string') out.push({ type: 'field', field, message: v });
    else categorize(v, field, out);
  }
}

// `path`: the entity's place in the tree ("upstreams.2.targets.1"), where `ids` has the id Kong's
// generate_ids wrote into the file before the checks that failed (absent ones only: Kong keeps a
// given id).
function addEntityErrors(type: string, entity: Record<string, unknown>, errValue: ErrValue, out: FlattenedError[], path: string, ids: ReadonlyMap<string, string> | undefined): void {
  const errs: ErrTable = typeof errValue === 'string' ? new Map([['@entity', errValue]]) : new Map(errValue);
  const derived = ids?.get(path);
  if (entity.id === undefined && derived !== undefined) entity.id = derived;
  const pk = typeof entity.id === 'string' && UUID.test(entity.id) ? { id: entity.id } : undefined;
  for (const [childKey, fk] of NESTED[type] ?? []) {
    const children = entity[childKey];
    if (!Array.isArray(children)) continue;
    const childErrs = errs.get(childKey);
    delete entity[childKey];
    errs.delete(childKey);
    if (!(childErrs instanceof Map)) continue;
    children.forEach((child, i) => {
      const e = childErrs.get(i + 1);
      if (!isObject(child) || e === undefined) return;
      const item: Record<string, unknown> = { ...child };
      if (item[fk] === undefined && pk !== undefined) item[fk] = pk;
      addEntityErrors(childKey, item, e, out, `${path}.${childKey}.${i + 1}`, ids);
    });
  }
  if (errs.size === 0) return;
  const list: FlattenedError['errors'] = [];
  categorize(errs, undefined, list);
  const entry: FlattenedError = { entity_type: type.replace(/s$/, ''), entity, errors: list };
  if (pk !== undefined) entry.entity_id = pk.id;
  if (typeof entity.name === 'string' && entity.name !== '') entry.entity_name = entity.name;
  if (Array.isArray(entity.tags) && entity.tags.every((t) => typeof t === 'string')) entry.entity_tags = entity.tags;
  out.push(entry);
}

/**
 * declarative_config_flattened: entity errors are drained into a list (nested children hoisted,
 * their parent's id injected); what cannot be tied to an input entity stays in `fields`. After
 * the schema phase Kong flattens against the file its generate_ids filled: `ids` are those ids,
 * by tree path.
 */
export function flattenErrors(input: Record<string, unknown>, errs: ErrTable, ids?: ReadonlyMap<string, string>): { fields: ErrTable; flattened: FlattenedError[] } {
  const remaining: ErrTable = new Map();
  const flattened: FlattenedError[] = [];
  for (const type of sortKeys([...errs.keys()])) {
    const section = errs.get(type) as ErrValue;
    const entities = input[String(type)];
    if (typeof section === 'string' || !Array.isArray(entities)) {
      remaining.set(type, section);
      continue;
    }
    const kept: ErrTable = new Map();
    for (const i of sortKeys([...section.keys()])) {
      const entity: unknown = typeof i === 'number' ? entities[i - 1] : undefined;
      const e = section.get(i) as ErrValue;
      if (isObject(entity)) addEntityErrors(String(type), structuredClone(entity), e, flattened, `${String(type)}.${String(i)}`, ids);
      else kept.set(i, e);
    }
    if (kept.size > 0) remaining.set(type, kept);
  }
  return { fields: remaining, flattened };
}
