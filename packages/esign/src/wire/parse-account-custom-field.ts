import { MAX_CUSTOM_FIELD_NAME, MAX_CUSTOM_FIELD_VALUE, MAX_LIST_ITEMS, type CustomField, type CustomFieldDraft } from '../domain/envelope/custom-fields.ts';
import { EsignError } from '../errors.ts';
import { checkModelFields, type ModelFieldRule } from './check-model-fields.ts';
import { WireReader } from './wire-reader.ts';

const honoured: ModelFieldRule = { rule: 'honoured' };
/** CustomField (docusign-esign src/model/CustomField.js), createCustomField's and updateCustomField's body. */
const RULES: Readonly<Record<string, ModelFieldRule>> = {
  name: honoured, customFieldType: honoured, value: honoured, show: honoured, required: honoured, listItems: honoured,
  fieldId: { rule: 'output' }, errorDetails: { rule: 'output' },
};

function root(body: unknown): WireReader {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new EsignError('INVALID_REQUEST_BODY', 'The body must be a JSON CustomField object.');
  const r = new WireReader('', body);
  checkModelFields(r, 'CustomField', RULES);
  return r;
}

function listItems(r: WireReader): string[] | undefined {
  if (!r.field('listItems').present) return undefined;
  const items = r.field('listItems').items().map((i) => i.string(MAX_CUSTOM_FIELD_VALUE));
  if (items.length > MAX_LIST_ITEMS) r.field('listItems').fail(`may hold at most ${MAX_LIST_ITEMS} items.`);
  return items;
}

/** createCustomField: a text field unless customFieldType says list (DocuSign's two types). */
export function parseNewAccountCustomField(body: unknown): CustomFieldDraft {
  const r = root(body);
  const kind = r.field('customFieldType').oneOf(['text', 'list'] as const, 'text');
  const items = listItems(r);
  if (kind === 'text' && items !== undefined) r.field('listItems').fail('is only for a customFieldType "list" field.');
  return {
    kind, name: r.field('name').string(MAX_CUSTOM_FIELD_NAME), value: r.field('value').optionalString(MAX_CUSTOM_FIELD_VALUE) ?? '',
    show: r.field('show').boolean(false), required: r.field('required').boolean(false), ...(kind === 'list' ? { listItems: items ?? [] } : {}),
  };
}

/** updateCustomField: what the body gives; a field's type does not change. */
export function parseAccountCustomFieldPatch(body: unknown): Partial<Omit<CustomField, 'fieldId' | 'kind'>> & { kind?: 'text' | 'list' } {
  const r = root(body);
  const kind = r.field('customFieldType').present ? r.field('customFieldType').oneOf(['text', 'list'] as const, 'text') : undefined;
  const items = listItems(r);
  return {
    ...(kind !== undefined ? { kind } : {}),
    ...(r.field('name').present ? { name: r.field('name').string(MAX_CUSTOM_FIELD_NAME) } : {}),
    ...(r.field('value').present ? { value: r.field('value').optionalString(MAX_CUSTOM_FIELD_VALUE) ?? '' } : {}),
    ...(r.field('show').present ? { show: r.field('show').boolean(false) } : {}),
    ...(r.field('required').present ? { required: r.field('required').boolean(false) } : {}),
    ...(items !== undefined ? { listItems: items } : {}),
  };
}
