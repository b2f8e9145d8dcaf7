// kong/db/schema/entities/plugins.lua, with each plugin's schema as its subschema (keyed by
// `name`): the plugin's own config record, its protocols and consumer rules replace the
// abstract fields, and its entity checks run on the whole plugin.
import type { CheckContext, ErrTable, Field, FieldTable, RecordSchema } from '../schema.ts';
import { atLeastOneOf, getPath, onlyOneOf } from '../schema.ts';
import { HTTP_PROTOCOLS, type ConditionalCheck, type EntityCheck, type PluginSchema } from '../../plugins/plugin-schema.ts';
import { KONG_BUNDLED_PLUGINS, PLUGIN_SCHEMAS } from '../../plugins/plugin-schemas.ts';
import { ID, PROTOCOL, TAGS, UTF8_NAME } from './common.ts';

const NO_CONSUMER: Field = { type: 'foreign', mustBeNull: true };

// A plugin is scoped to a consumer or to a consumer group, not both (Kong's mutually_exclusive).
function consumerOrGroup(ctx: CheckContext): void {
  const set = (v: unknown): boolean => v !== undefined && v !== null;
  if (set(ctx.entity.consumer) && set(ctx.entity.consumer_group)) ctx.entityError("only one or none of these fields must be set: 'consumer', 'consumer_group'");
}

/** What a plugin name that cannot run here gets, on its `name` field. */
export function pluginNameError(name: string): string {
  if (KONG_BUNDLED_PLUGINS.includes(name) && !PLUGIN_SCHEMAS.has(name)) {
    return `plugin '${name}' is bundled with Kong but not implemented by this gateway yet`;
  }
  return `plugin '${name}' not enabled; add it to the 'plugins' configuration property`;
}

/**
 * Kong's conditional with dotted paths (jwt: maximum_expiration > 0 needs `exp` in
 * claims_to_verify): run even on invalid fields; an absent then-field passes (it is optional);
 * the error goes on the nested field and the entity.
 */
function conditionalCheck(c: ConditionalCheck): (ctx: CheckContext) => void {
  const ifMatch = c.if_match;
  const thenMatch = c.then_match;
  return (ctx) => {
    const ifValue = getPath(ctx.entity, c.if_field);
    if ('gt' in ifMatch ? typeof ifValue !== 'number' || !(ifValue > ifMatch.gt) : ifValue !== ifMatch.eq) return;
    const thenValue = getPath(ctx.entity, c.then_field);
    let error: string;
    if ('required' in thenMatch) {
      // rate-limiting: policy redis needs config.redis.host (null when not given).
      if (thenValue !== null && thenValue !== undefined) return;
      error = 'required field missing';
    } else {
      if (!Array.isArray(thenValue) || thenValue.includes(thenMatch.contains)) return;
      error = `expected to contain: ${thenMatch.contains}`;
    }
    const path = c.then_field.split('.');
    let node: ErrTable = ctx.errors;
    for (const part of path.slice(0, -1)) {
      let next = node.get(part);
      if (next === undefined) node.set(part, (next = new Map()));
      if (typeof next === 'string') return;
      node = next;
    }
    node.set(path[path.length - 1]!, error);
    ctx.entityError(`failed conditional validation given value of field '${c.if_field}'`);
  };
}

function entityCheck(c: EntityCheck): (ctx: CheckContext) => void {
  if ('only_one_of' in c) return onlyOneOf(c.only_one_of);
  if ('at_least_one_of' in c) return atLeastOneOf(c.at_least_one_of);
  return conditionalCheck(c.conditional);
}

function fields(foreign: Field, plugin: PluginSchema | undefined): FieldTable {
  return [
    ['id', ID],
    ['name', { type: 'string', required: true }],
    ['instance_name', UTF8_NAME],
    ['created_at', { type: 'integer' }],
    ['updated_at', { type: 'integer' }],
    ['route', foreign],
    ['service', foreign],
    ['consumer', plugin === undefined || plugin.consumerScoped ? foreign : NO_CONSUMER],
    // Consumer groups take the plugins a consumer may take (not the authentication plugins, which find the consumer).
    ['consumer_group', plugin === undefined || plugin.consumerScoped ? foreign : NO_CONSUMER],
    plugin === undefined
      ? ['config', { type: 'record' }]
      : ['config', {
        type: 'record', required: true, default: {}, record: plugin.config,
        ...(plugin.configValidator === undefined ? {} : { custom: plugin.configValidator }),
      }],
    plugin === undefined
      ? ['protocols', { type: 'set', required: true, default: [...HTTP_PROTOCOLS], elements: PROTOCOL }]
      : ['protocols', { type: 'set', required: true, default: [...HTTP_PROTOCOLS], elements: { type: 'string', oneOf: HTTP_PROTOCOLS } }],
    ['enabled', { type: 'boolean', required: true, default: true }],
    ['tags', TAGS],
  ];
}

/**
 * The plugin record schema. `foreign` is how route/service/consumer may be written here;
 * `enabled` the plugin names this load accepts; `under` when nested in a consumer or a
 * consumer group (a plugin that cannot be set on a consumer is refused there).
 */
export function pluginSchema(foreign: Field, enabled: ReadonlySet<string>, under?: 'consumer' | 'consumer_group'): RecordSchema {
  const subschemas = new Map<string, RecordSchema>();
  return {
    fields: fields(foreign, undefined),
    checks: [consumerOrGroup],
    subschemas: {
      key: 'name',
      find: (name) => {
        const plugin = PLUGIN_SCHEMAS.get(name);
        if (plugin === undefined || !enabled.has(name)) return undefined;
        let schema = subschemas.get(name);
        if (schema === undefined) {
          const checks = [consumerOrGroup, ...(plugin.entityChecks ?? []).map(entityCheck)];
          if (under !== undefined && !plugin.consumerScoped) checks.push((ctx) => ctx.fieldError(under, 'value must be null'));
          schema = { fields: fields(foreign, plugin), checks };
          subschemas.set(name, schema);
        }
        return schema;
      },
      error: pluginNameError,
    },
  };
}
