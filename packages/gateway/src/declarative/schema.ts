// A small validator over Kong-style field tables (kong/db/schema/init.lua, reduced to what the
// core entities use), producing Kong's exact error texts and its raw error tree. Entities stay
// data: each entities/<entity>.ts is a field table plus entity checks.
import { uniqueSet } from './unique-set.ts';

/** Kong's raw error tree: a Lua table. Number keys are 1-based array positions. */
export type ErrTable = Map<string | number, ErrValue>;
/** A leaf message or a subtree. */
export type ErrValue = string | ErrTable;

/** A record value being validated (YAML mapping). */
export type Input = Record<string, unknown>;

/** One field definition, mirroring Kong's schema attributes. */
export type Field = {
  readonly type: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'set' | 'map' | 'record' | 'foreign';
  readonly required?: boolean;
  /** Filled when the key is absent (deep-copied). */
  readonly default?: unknown;
  readonly between?: readonly [number, number];
  readonly oneOf?: readonly (string | number)[];
  readonly lenMin?: number;
  readonly startsWith?: string;
  /** Patterns the value must not match, each with its own error (Kong `match_none`). */
  readonly matchNone?: readonly { readonly pattern: RegExp; readonly err: string }[];
  /** The value must match every pattern (Kong `match_all`). */
  readonly matchAll?: readonly { readonly pattern: RegExp; readonly err: string }[];
  /** The value must match at least one pattern (Kong `match_any`). */
  readonly matchAny?: { readonly patterns: readonly RegExp[]; readonly err: string };
  /** Must match (Kong `match`): "invalid value: <v>". */
  readonly match?: RegExp;
  readonly uuid?: boolean;
  /** Returns Kong's error text, or undefined when valid. */
  readonly custom?: (value: never) => string | undefined;
  readonly elements?: Field;
  readonly keys?: Field;
  readonly values?: Field;
  readonly record?: RecordSchema;
  readonly mutuallyExclusiveSubsets?: readonly (readonly string[])[];
  /** Must be null/absent; `err` replaces "value must be null" (typedefs.no_consumer, subschema bans). */
  readonly mustBeNull?: boolean;
  /** Must not equal this value (grpc routes: strip_path ne true). */
  readonly ne?: unknown;
  /** Replaces every validator's error text (Kong `err`). */
  readonly err?: string;
  /** Left out of the loaded entity when unset, instead of null (Kong's `ttl`). */
  readonly omitWhenNull?: boolean;
};

/** An ordered field table, as Kong writes them. */
export type FieldTable = readonly (readonly [string, Field])[];

/** What an entity check can see and report. */
export type CheckContext = {
  readonly entity: Input;
  readonly errors: ErrTable;
  /** Whether validation already failed for this field (checks on it are skipped, as in Kong). */
  hasError(field: string): boolean;
  entityError(message: string): void;
  fieldError(field: string, message: string): void;
};

/**
 * Kong's subschemas (plugins: `subschema_key = "name"`): the value of one field picks the schema
 * the whole record is validated against; an unknown value is the only error reported.
 */
export type Subschemas = {
  readonly key: string;
  /** The schema for this key value, or undefined when there is none. */
  readonly find: (value: string) => RecordSchema | undefined;
  /** The error set on the key field when `find` has nothing (Kong's subschema_error). */
  readonly error: (value: string) => string;
};

/** A record schema: fields, shorthands run before defaults, entity checks run after fields. */
export type RecordSchema = {
  readonly fields: FieldTable;
  readonly subschemas?: Subschemas;
  /** Rewrites shorthand keys (service `url`, upstream `algorithm`/`hash_on` coupling). */
  readonly shorthands?: (input: Input, errors: ErrTable) => Input;
  readonly checks?: readonly ((ctx: CheckContext) => void)[];
  /**
   * Kong's `subschema_key` on a set (routes' `protocols`): when no element of the field names a
   * subschema, the record is validated no further and "unknown type: <first element>" on that
   * field is its only error (Schema:validate, SUBSCHEMA_UNKNOWN).
   */
  readonly subschemaKey?: { readonly field: string; readonly known: ReadonlySet<string> };
};

const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);

function copy<T>(v: T): T {
  return v === undefined ? v : (structuredClone(v));
}

/** Kong's quoted_list: `'a', 'b'`, or `('a', 'b'), ('c')` for nested lists. */
export function quotedList(words: readonly (string | readonly string[])[]): string {
  return words.map((w) => (typeof w === 'string' ? `'${w}'` : `(${quotedList(w)})`)).join(', ');
}

/** Kong's is_nonempty: not null/absent, not an empty string or empty array. */
export function isNonEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return false;
  if (typeof v === 'string') return v !== '';
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

function typeError(field: Field, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? undefined : 'expected a string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? undefined : 'expected an integer';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'expected a number';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected a boolean';
    case 'array':
      return Array.isArray(value) ? undefined : 'expected an array';
    case 'set':
      return Array.isArray(value) ? undefined : 'expected a set';
    case 'map':
      return isRecord(value) ? undefined : 'expected a map';
    case 'record':
      return isRecord(value) ? undefined : 'expected a record';
    case 'foreign':
      return undefined;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Kong's validators_order: eq/ne, one_of, uuid, between, len_min, starts_with, match_none,
// match, match_all, match_any, custom_validator, mutually_exclusive_subsets.
function runValidators(field: Field, value: unknown): string | undefined {
  const fail = (msg: string): string => field.err ?? msg;
  if (field.ne !== undefined && value === field.ne) return fail(`value must not be ${JSON.stringify(field.ne)}`);
  if (field.oneOf !== undefined && !field.oneOf.includes(value as string | number)) {
    return fail(`expected one of: ${field.oneOf.join(', ')}`);
  }
  if (field.uuid === true && !(typeof value === 'string' && UUID.test(value))) return fail('expected a valid UUID');
  if (field.between !== undefined && typeof value === 'number') {
    const [lo, hi] = field.between;
    if (value < lo || value > hi) return fail(`value should be between ${lo} and ${hi}`);
  }
  // Kong: "empty strings are not accepted by default" (len_min 1 unless set).
  const lenMin = field.lenMin ?? (field.type === 'string' ? 1 : undefined);
  if (lenMin !== undefined && (typeof value === 'string' || Array.isArray(value)) && value.length < lenMin) {
    return fail(`length must be at least ${lenMin}`);
  }
  if (typeof value === 'string') {
    if (field.startsWith !== undefined && !value.startsWith(field.startsWith)) return fail(`should start with: ${field.startsWith}`);
    for (const rule of field.matchNone ?? []) if (rule.pattern.test(value)) return field.err ?? rule.err;
    if (field.match !== undefined && !field.match.test(value)) return fail(`invalid value: ${value}`);
    for (const rule of field.matchAll ?? []) if (!rule.pattern.test(value)) return field.err ?? rule.err;
    if (field.matchAny !== undefined && !field.matchAny.patterns.some((p) => p.test(value))) {
      return field.err ?? field.matchAny.err;
    }
  }
  if (field.custom !== undefined) {
    const err = (field.custom as (v: unknown) => string | undefined)(value);
    if (err !== undefined) return fail(err);
  }
  if (field.mutuallyExclusiveSubsets !== undefined && Array.isArray(value)) {
    const memberOf: (readonly string[])[] = [];
    for (const v of value) {
      const subset = field.mutuallyExclusiveSubsets.find((s) => s.includes(v as string));
      if (subset !== undefined && !memberOf.includes(subset)) memberOf.push(subset);
    }
    if (memberOf.length > 1) return fail(`these sets are mutually exclusive: ${quotedList(memberOf)}`);
  }
  return undefined;
}

/** Validates one value against a field (Kong Schema:validate_field); null means "not set". */
export function validateField(field: Field, value: unknown): ErrValue | undefined {
  if (value === null || value === undefined) {
    if (field.required === true) return 'required field missing';
    return undefined;
  }
  if (field.mustBeNull === true) return field.err ?? 'value must be null';
  const typeErr = typeError(field, value);
  if (typeErr !== undefined) return typeErr;
  if ((field.type === 'array' || field.type === 'set') && field.elements !== undefined) {
    const errs: ErrTable = new Map();
    const elementField: Field = { ...field.elements, required: true };
    (value as unknown[]).forEach((el, i) => {
      const e = validateField(elementField, el);
      if (e !== undefined) errs.set(i + 1, e);
    });
    if (errs.size > 0) return errs;
  }
  if (field.type === 'map' && field.keys !== undefined && field.values !== undefined) {
    // Kong reports only the first bad key or value of a map: a plain string, or a record
    // value's own error table (response-ratelimiting's limits: `{seco: 'unknown field'}`).
    for (const [k, v] of Object.entries(value as Input)) {
      const e = validateField({ ...field.keys, required: true }, k) ?? validateField({ ...field.values, required: true }, v);
      if (e !== undefined) return typeof e === 'string' || field.values.type === 'record' ? e : firstMessage(e);
    }
  }
  if (field.type === 'record' && field.record !== undefined) {
    const r = validateRecord(field.record, value);
    if (r.errors !== undefined) return r.errors;
  }
  return runValidators(field, value);
}

function firstMessage(t: ErrTable): string {
  for (const v of t.values()) return typeof v === 'string' ? v : firstMessage(v);
  return 'invalid value';
}

/** The schema a record is really checked against: its subschema when the schema has them. */
export function effectiveSchema(schema: RecordSchema, input: Input): RecordSchema {
  const sub = schema.subschemas;
  if (sub === undefined) return schema;
  const key = input[sub.key];
  return (typeof key === 'string' ? sub.find(key) : undefined) ?? schema;
}

/** Fills absent fields with their defaults (Kong process_auto_fields "insert"), recursing into records. */
export function applyDefaults(base: RecordSchema, input: Input): Input {
  const schema = effectiveSchema(base, input);
  const out: Input = { ...input };
  for (const [name, field] of schema.fields) {
    const v = out[name];
    if (v === undefined) {
      if (field.default !== undefined) {
        // A defaulted record gets its own fields' defaults too (a plugin's `config: {}`).
        const d = copy(field.default);
        out[name] = field.type === 'record' && field.record !== undefined && isRecord(d) ? applyDefaults(field.record, d) : d;
      }
      else if (field.required !== true) out[name] = null;
    } else if (field.type === 'record' && field.record !== undefined && isRecord(v)) {
      // A nested record's shorthands first (rate-limiting's redis_host), so the entity checks
      // of the enclosing record see the fields they fill.
      const shorthands = field.record.shorthands;
      out[name] = applyDefaults(field.record, shorthands === undefined ? v : shorthands(v, new Map()));
    } else if (field.type === 'set' && Array.isArray(v)) {
      // Kong's make_set: duplicates are dropped silently.
      out[name] = uniqueSet(v);
    }
  }
  return out;
}

/** Validates a record: shorthands, defaults, unknown fields, each field, then entity checks. */
export function validateRecord(
  schema: RecordSchema,
  input: unknown,
  preset?: ReadonlyMap<string, string>,
): { value: Input; errors: ErrValue | undefined } {
  // `preset`: field errors found outside the schema (YAML style rules); those fields are not revalidated.
  const errors: ErrTable = new Map(preset);
  if (!isRecord(input)) return { value: {}, errors: 'expected a record' };
  const sub = schema.subschemas;
  if (sub !== undefined && typeof input[sub.key] === 'string') {
    const key = input[sub.key] as string;
    const found = sub.find(key);
    if (found === undefined) return { value: input, errors: new Map([[sub.key, sub.error(key)]]) };
    return validateRecord(found, input, preset);
  }
  const shorthanded = schema.shorthands === undefined ? input : schema.shorthands(input, errors);
  const value = applyDefaults(schema, shorthanded);
  const unknown = schema.subschemaKey === undefined ? undefined : unknownSubschema(schema.subschemaKey.known, value[schema.subschemaKey.field]);
  if (unknown !== undefined) return { value, errors: new Map([[(schema.subschemaKey as { field: string }).field, unknown]]) };
  const known = new Set(schema.fields.map(([n]) => n));
  for (const key of Object.keys(value)) if (!known.has(key) && !errors.has(key)) errors.set(key, 'unknown field');
  for (const [name, field] of schema.fields) {
    if (errors.has(name)) continue;
    const e = validateField(field, value[name]);
    if (e !== undefined) errors.set(name, e);
  }
  const ctx: CheckContext = {
    entity: value,
    errors,
    hasError: (f) => errors.has(f),
    entityError: (message) => pushEntityError(errors, message),
    fieldError: (f, message) => {
      if (!errors.has(f)) errors.set(f, message);
    },
  };
  for (const check of schema.checks ?? []) check(ctx);
  return { value, errors: errors.size > 0 ? errors : undefined };
}

// Lua's tostring of the value Kong formats into "unknown type: %s", where it is certain: a string,
// nil (an empty list has no first element), a boolean, an integer LuaJIT prints without an
// exponent (%.14g). Anything else is left to the field's own validation.
function luaToString(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (v === undefined) return 'nil';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 1e14 && !Object.is(v, -0)) return String(v);
  return undefined;
}

// get_subschema: a string names its subschema; a list selects the first element that names one.
function unknownSubschema(known: ReadonlySet<string>, key: unknown): string | undefined {
  if (typeof key === 'string') return known.has(key) ? undefined : `unknown type: ${key}`;
  if (!Array.isArray(key) || key.some((k) => typeof k === 'string' && known.has(k))) return undefined;
  const first = luaToString(key[0]);
  return first === undefined ? undefined : `unknown type: ${first}`;
}

/** Appends a message to the `@entity` list of an error table. */
export function pushEntityError(errors: ErrTable, message: string): void {
  let list = errors.get('@entity');
  if (!(list instanceof Map)) {
    list = new Map();
    errors.set('@entity', list);
  }
  list.set(list.size + 1, message);
}

/**
 * Kong's `conditional` entity check: when `ifField` matches, `thenField` must pass `thenMatch`;
 * a failure sets the field error and "failed conditional validation given value of field '…'".
 */
export function conditional(
  ifField: string,
  ifMatch: (v: unknown) => boolean,
  thenField: string,
  thenMatch: Field,
  thenErr?: string,
): (ctx: CheckContext) => void {
  // Kong runs it even when the fields are invalid (run_with_invalid_fields) and overwrites the field error.
  return (ctx) => {
    if (!ifMatch(ctx.entity[ifField])) return;
    const err = validateField(thenMatch, ctx.entity[thenField] ?? null);
    if (err === undefined) return;
    ctx.errors.set(thenField, typeof err === 'string' ? err : firstMessage(err));
    ctx.entityError(thenErr ?? `failed conditional validation given value of field '${ifField}'`);
  };
}

/** Kong's `distinct` entity check. */
export function distinct(fields: readonly string[]): (ctx: CheckContext) => void {
  return (ctx) => {
    const seen = new Set<unknown>();
    for (const f of fields) {
      const v = ctx.entity[f];
      if (!isNonEmpty(v)) continue;
      if (seen.has(v)) return ctx.entityError(`values of these fields must be distinct: ${quotedList(fields)}`);
      seen.add(v);
    }
  };
}

/** A field of a record by Kong's dotted path (`config.allow`). */
export function getPath(entity: Input, path: string): unknown {
  let v: unknown = entity;
  for (const part of path.split('.')) v = isRecord(v) ? v[part] : undefined;
  return v;
}

/** Kong's `at_least_one_of` entity check (dotted paths allowed). */
export function atLeastOneOf(fields: readonly string[]): (ctx: CheckContext) => void {
  return (ctx) => {
    if (!fields.some((f) => isNonEmpty(getPath(ctx.entity, f)))) {
      ctx.entityError(`at least one of these fields must be non-empty: ${quotedList(fields)}`);
    }
  };
}

/** Kong's `only_one_of`: skipped when none is set (run_with_missing_fields = false). */
export function onlyOneOf(fields: readonly string[]): (ctx: CheckContext) => void {
  return (ctx) => {
    const values = fields.map((f) => getPath(ctx.entity, f));
    if (values.every((v) => v === undefined || v === null)) return;
    if (values.filter(isNonEmpty).length !== 1) {
      ctx.entityError(`exactly one of these fields must be non-empty: ${quotedList(fields)}`);
    }
  };
}

/** Kong's `mutually_required` entity check. */
export function mutuallyRequired(fields: readonly string[]): (ctx: CheckContext) => void {
  return (ctx) => {
    if (fields.some((f) => ctx.hasError(f))) return;
    const set = fields.filter((f) => isNonEmpty(ctx.entity[f])).length;
    if (set !== 0 && set !== fields.length) ctx.entityError(`all or none of these fields must be set: ${quotedList(fields)}`);
  };
}
