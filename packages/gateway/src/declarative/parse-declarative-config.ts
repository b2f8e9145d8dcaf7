// kong.yml → validated, defaulted, deep-frozen Snapshot, following the phases of Kong's
// declarative_config.lua `flatten`: (1) schema validation of every entity, nested ones
// included; only when that passes, (2) ids, uniqueness and references. Every problem of a
// phase is reported at once, in Kong's shape and as `file:line:col` lines for humans.
import { createHash, randomUUID } from 'node:crypto';
import type { Snapshot } from './types.ts';
import type { ErrTable, Input } from './schema.ts';
import { validateField, validateRecord } from './schema.ts';
import { GatewayError } from '../errors.ts';
import { ConfigSyntaxError, readDocument, type ConfigDocument } from './read-document.ts';
import { ENTITY_TYPES, UNSUPPORTED_TYPES, entitySchema, unsupportedMessage, type EntityType } from './declarative-schema.ts';
import { PEM_FIELDS } from './entities/certificate.ts';
import { migrateRoutePath } from './normalize-path.ts';
import { errorsToJson, errorsToLua, flattenErrors } from './error-tree.ts';
import { resolveEntities, type DerivedIds, type ErrorPlaces, type TreePath } from './resolve-entities.ts';
import { humanLines } from './human-lines.ts';
import { BUNDLED_PLUGINS } from '../plugins/plugin-schemas.ts';
import { deepFreeze } from './deep-freeze.ts';
import { applyRedisUrl, type RedisUrlFields } from './redis-url-defaults.ts';

/** Options of parseDeclarativeConfig. */
export type ParseOptions = {
  /** Named in human error lines (`kong.yml:3:7: …`); default "kong.yml". */
  readonly fileName?: string;
  /** created_at/updated_at in seconds (targets keep milliseconds, as Kong); default the current time. */
  readonly now?: number;
  /** Random ids (certificates, unnamed services/routes); default crypto.randomUUID. */
  readonly randomId?: () => string;
  /** The plugins a configuration may use (Kong's `plugins` setting); default every bundled one. */
  readonly enabledPlugins?: ReadonlySet<string>;
  /** The node's REDIS_URL: the Redis of redis-policy plugins naming no host (redis-url-defaults.ts). */
  readonly redisDefaults?: RedisUrlFields;
};

const FORMAT_VERSIONS = ['1.1', '2.1', '3.0'];
const isRecord = (v: unknown): v is Input => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Kong's configuration hash: md5 of the raw text. */
export function configHash(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** Parses kong.yml text into a frozen Snapshot, or throws GatewayError('DECLARATIVE_CONFIG') with every problem. */
export function parseDeclarativeConfig(text: string, options: ParseOptions = {}): Snapshot {
  const fileName = options.fileName ?? 'kong.yml';
  let doc: ConfigDocument;
  try {
    doc = readDocument(text);
  } catch (e) {
    if (!(e instanceof ConfigSyntaxError)) throw e;
    throw parsingError(e.message, [`${fileName}:${e.line}:${e.col}: failed parsing declarative configuration: ${e.message}`]);
  }
  const input = doc.value;
  if (!isRecord(input)) {
    throw parsingError('expected an object', [`${fileName}:1:1: failed parsing declarative configuration: expected an object`]);
  }
  // migrations/route_path.lua runs before validation for 1.1 and 2.1 files.
  const migrated = migrateFormat(input);
  const config = options.redisDefaults === undefined ? migrated : (applyRedisUrl(migrated, options.redisDefaults) as Input);

  const enabledPlugins = options.enabledPlugins ?? BUNDLED_PLUGINS;
  const errors = validateTopLevel(config, doc, enabledPlugins);
  const transform = config._transform !== false;
  if (errors.size > 0) {
    // Kong stops after the schema phase; the human lines also name the clashes and dangling
    // references of the entities that are otherwise valid, so one run shows everything.
    const later = laterPhaseErrors(config, errors, enabledPlugins); // adds nested names to nothing to `errors`
    throw declarativeError(errors, input, doc, fileName, later);
  }

  const resolved = resolveEntities(config, {
    now: options.now ?? Date.now() / 1000,
    randomId: options.randomId ?? randomUUID,
    enabledPlugins,
    transform,
  });
  if (resolved.errors !== undefined) {
    const { places, later } = resolved;
    // Kong reports uniqueness and reference errors against the file with the ids it derived.
    const ids = resolved.phase === 'references' ? resolved.ids : undefined;
    throw declarativeError(resolved.errors, input, doc, fileName, { trees: later, places }, places, ids);
  }
  return deepFreeze({ ...resolved.entities, hash: configHash(text) });
}

function parsingError(reason: string, lines: string[]): GatewayError {
  const error = `failed parsing declarative configuration: ${reason}`;
  const fields = new Map([['error', error]]);
  return new GatewayError('DECLARATIVE_CONFIG', {
    message: `declarative config is invalid: ${errorsToLua(fields)}`,
    fields: errorsToJson(fields),
    flattened: { message: `declarative config is invalid: ${errorsToLua(fields)}`, fields: errorsToJson(fields), errors: [] },
    lines,
  });
}

function migrateFormat(input: Input): Input {
  const version = input._format_version;
  if (version !== '1.1' && version !== '2.1') return input;
  const config = structuredClone(input);
  const migrateRoutes = (routes: unknown): void => {
    if (!Array.isArray(routes)) return;
    for (const route of routes) {
      if (isRecord(route) && Array.isArray(route.paths)) {
        route.paths = route.paths.map((p: unknown) => (typeof p === 'string' ? migrateRoutePath(p) : p));
      }
    }
  };
  migrateRoutes(config.routes);
  if (Array.isArray(config.services)) for (const s of config.services) if (isRecord(s)) migrateRoutes(s.routes);
  config._format_version = '3.0';
  return config;
}

function validateTopLevel(config: Input, doc: ConfigDocument, enabledPlugins: ReadonlySet<string>): ErrTable {
  const errors: ErrTable = new Map();
  const version = validateField({ type: 'string', required: true, oneOf: FORMAT_VERSIONS }, config._format_version);
  if (version !== undefined) errors.set('_format_version', version);
  const meta: [string, Parameters<typeof validateField>[0]][] = [
    ['_transform', { type: 'boolean' }],
    ['_comment', { type: 'string' }],
    ['_ignore', { type: 'array' }],
  ];
  for (const [key, field] of meta) {
    const e = validateField(field, config[key]);
    if (e !== undefined) errors.set(key, e);
  }
  for (const key of Object.keys(config)) {
    if (key === '_format_version' || meta.some(([k]) => k === key)) continue;
    if ((UNSUPPORTED_TYPES as readonly string[]).includes(key)) {
      errors.set(key, unsupportedMessage(key));
      continue;
    }
    if (!(ENTITY_TYPES as readonly string[]).includes(key)) {
      errors.set(key, 'unknown field');
      continue;
    }
    const list = config[key];
    if (list === null) continue;
    if (!Array.isArray(list)) {
      errors.set(key, 'expected an array');
      continue;
    }
    const type = key as EntityType;
    const listErrors: ErrTable = new Map();
    list.forEach((item: unknown, i) => {
      const preset = type === 'certificates' && !doc.json ? pemStyleErrors(item, doc, [key, i]) : undefined;
      const r = validateRecord(entitySchema(type, enabledPlugins), item, preset);
      if (r.errors !== undefined) listErrors.set(i + 1, r.errors);
    });
    if (listErrors.size > 0) errors.set(key, listErrors);
  }
  return errors;
}

// Spec §7: cert and key must be written as multi-line block scalars (`cert: |`), keeping the
// PEM line breaks; anything else is an invalid certificate.
function pemStyleErrors(item: unknown, doc: ConfigDocument, path: (string | number)[]): Map<string, string> | undefined {
  if (!isRecord(item)) return undefined;
  const out = new Map<string, string>();
  for (const field of PEM_FIELDS) {
    if (typeof item[field] !== 'string') continue;
    const style = doc.scalarStyle([...path, field]);
    if (style !== 'BLOCK_LITERAL' || !(item[field]).trim().includes('\n')) {
      out.set(field, `invalid certificate: '${field}' must be a multi-line YAML block scalar ('${field}: |' followed by the PEM lines)`);
    }
  }
  return out.size > 0 ? out : undefined;
}

/** Error trees for the human lines only, with where their name-keyed errors point. */
type LaterErrors = { readonly trees: readonly ErrTable[]; readonly places: ErrorPlaces };

// Whether the schema phase already reports something at this tree path (or above it).
function failedAt(phase1: ErrTable, path: TreePath): boolean {
  let node: ErrTable = phase1;
  for (const segment of path) {
    const next = node.get(segment);
    if (next === undefined) return false;
    if (!(next instanceof Map)) return true;
    node = next;
  }
  return true;
}

// Adds what `more` has where `into` has nothing (the schema phase's own errors stay).
function mergeErrors(into: ErrTable, more: ErrTable): void {
  for (const [key, value] of more) {
    const there = into.get(key);
    if (there === undefined) into.set(key, value);
    else if (there instanceof Map && value instanceof Map) mergeErrors(there, value);
  }
}

// The later checks' problems (nested references to nothing, uniqueness, references) of the
// entities the schema phase passed. A nested child naming nothing is itself a schema error in
// Kong (its full-schema validation): that one joins `phase1`.
function laterPhaseErrors(config: Input, phase1: ErrTable, enabledPlugins: ReadonlySet<string>): LaterErrors | undefined {
  let resolved: ReturnType<typeof resolveEntities>;
  try {
    resolved = resolveEntities(config, { now: 0, randomId: randomUUID, enabledPlugins, transform: false });
  } catch {
    return undefined; // entities too malformed to resolve: the schema errors say enough
  }
  if (resolved.errors === undefined) return undefined;
  const { places } = resolved;
  const trees = resolved.phase === 'schema' ? resolved.later : [resolved.errors, ...resolved.later];
  if (resolved.phase === 'schema') mergeErrors(phase1, resolved.errors);
  const kept = trees.map((tree) => withoutFailed(tree, phase1, places)).filter((tree) => tree.size > 0);
  return kept.length > 0 ? { trees: kept, places } : undefined;
}

// A tree without the errors of entities the schema phase already failed (a parent's own schema
// errors do not hide its children's clashes).
function withoutFailed(tree: ErrTable, phase1: ErrTable, places: ErrorPlaces): ErrTable {
  const prune = (node: ErrTable, path: TreePath): ErrTable => {
    const out: ErrTable = new Map();
    for (const [key, value] of node) {
      // A name or id key stands for the entity it was found at.
      const keyed = typeof key === 'string' && path.length === 1 ? places.get(`${String(path[0])}:${key}`) : undefined;
      if (keyed === undefined && value instanceof Map) {
        const below = prune(value, [...path, key]);
        if (below.size > 0) out.set(key, below);
        continue;
      }
      // A message at a position is about the entity there; one under a field name, about its entity.
      const entity = keyed ?? (typeof key === 'number' ? [...path, key] : path);
      if (!failedAt(phase1, entity)) out.set(key, value);
    }
    return out;
  };
  return prune(tree, []);
}

function declarativeError(
  errors: ErrTable,
  input: Input,
  doc: ConfigDocument,
  fileName: string,
  extra?: LaterErrors,
  places?: ErrorPlaces,
  ids?: DerivedIds,
): GatewayError {
  const message = `declarative config is invalid: ${errorsToLua(errors)}`;
  const flat = flattenErrors(input, errors, ids);
  return new GatewayError('DECLARATIVE_CONFIG', {
    message,
    fields: errorsToJson(errors),
    flattened: {
      message: `declarative config is invalid: ${errorsToLua(flat.fields)}`,
      fields: flat.fields.size === 0 ? {} : errorsToJson(flat.fields),
      errors: flat.flattened,
    },
    lines: [
      ...humanLines(errors, input, doc, fileName, places),
      ...(extra === undefined ? [] : extra.trees.flatMap((tree) => humanLines(tree, input, doc, fileName, extra.places))),
    ],
  });
}
