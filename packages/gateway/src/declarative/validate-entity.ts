// A single entity checked against its schema, for the admin API: Kong validates a POST body
// before the DB-less strategy refuses the write (kong/db/strategies/off/init.lua), so a bad body is a 400.
import { GatewayError } from '../errors.ts';
import { ENTITY_TYPES, entitySchema, type EntityType } from './declarative-schema.ts';
import { validateRecord, type ErrTable, type ErrValue } from './schema.ts';
import { errorsToJson, errorsToLua } from './error-tree.ts';
import { BUNDLED_PLUGINS } from '../plugins/plugin-schemas.ts';

/** Whether `name` is an entity collection this gateway serves. */
export function isEntityType(name: string): name is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(name);
}

// kong/db/errors.lua schema_violation: "schema violation (f: m)" or "N schema violations (a; b)".
function summary(errors: ErrTable): string {
  const parts: string[] = [];
  const entity = errors.get('@entity');
  if (entity instanceof Map) for (const m of entity.values()) parts.push(String(errorsToJson(m)));
  const keys = [...errors.keys()].filter((k) => k !== '@entity').map(String).sort();
  for (const key of keys) {
    const v = errors.get(key) as ErrValue;
    if (typeof v === 'string') parts.push(`${key}: ${v}`);
    else for (const [sub, sv] of v) parts.push(`${key}.${String(sub)}: ${typeof sv === 'string' ? sv : errorsToLua(sv)}`);
  }
  return parts.length === 1 ? `schema violation (${parts[0] ?? ''})` : `${parts.length} schema violations (${parts.join('; ')})`;
}

/** Throws GatewayError('SCHEMA_VIOLATION') (Kong code 2) when `body` is not a valid `type` entity. */
export function validateEntity(type: string, body: unknown, enabledPlugins: ReadonlySet<string> = BUNDLED_PLUGINS): void {
  if (!isEntityType(type)) return;
  const { errors } = validateRecord(entitySchema(type, enabledPlugins), body);
  if (errors === undefined) return;
  const table: ErrTable = typeof errors === 'string' ? new Map([['@entity', new Map([[1, errors]])]]) : errors;
  throw new GatewayError('SCHEMA_VIOLATION', { message: summary(table), fields: errorsToJson(table) });
}
