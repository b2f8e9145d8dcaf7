// GET /schemas/plugins/{name}: a plugin's schema as Kong's schema_to_jsonable shows it — its
// own fields (consumer rule, protocols, config) as `{name: {type, required, default, …}}`
// entries, and its entity checks.
import type { Field, FieldTable } from '../declarative/schema.ts';
import { HTTP_PROTOCOLS, type PluginSchema } from '../plugins/plugin-schema.ts';

function fieldView(field: Field): Record<string, unknown> {
  const out: Record<string, unknown> = { type: field.type };
  if (field.required === true) out.required = true;
  if (field.default !== undefined) out.default = field.default;
  if (field.oneOf !== undefined) out.one_of = field.oneOf;
  if (field.between !== undefined) out.between = field.between;
  if (field.lenMin !== undefined) out.len_min = field.lenMin;
  if (field.startsWith !== undefined) out.starts_with = field.startsWith;
  if (field.elements !== undefined) out.elements = fieldView(field.elements);
  if (field.keys !== undefined) out.keys = fieldView(field.keys);
  if (field.values !== undefined) out.values = fieldView(field.values);
  if (field.record !== undefined) out.fields = fieldsView(field.record.fields);
  return out;
}

const fieldsView = (fields: FieldTable): object[] => fields.map(([name, field]) => ({ [name]: fieldView(field) }));

/** The JSON body of GET /schemas/plugins/{name}. */
export function pluginSchemaView(schema: PluginSchema): object {
  const fields: object[] = [];
  if (!schema.consumerScoped) fields.push({ consumer: { type: 'foreign', reference: 'consumers', eq: null } });
  fields.push({ protocols: { type: 'set', required: true, default: [...HTTP_PROTOCOLS], elements: { type: 'string', one_of: [...HTTP_PROTOCOLS] } } });
  fields.push({ config: { type: 'record', required: true, fields: fieldsView(schema.config.fields) } });
  return { fields, ...(schema.entityChecks === undefined ? {} : { entity_checks: schema.entityChecks }) };
}
