import { MAX_CUSTOM_FIELDS, MAX_CUSTOM_FIELD_NAME, MAX_CUSTOM_FIELD_VALUE, MAX_LIST_ITEMS, assertCustomField, assertDistinctNames, type CustomFieldDraft, type CustomFieldPatch } from '../domain/envelope/custom-fields.ts';
import { checkModelFields, type ModelFieldRule } from './check-model-fields.ts';
import type { WireReader } from './wire-reader.ts';

const honoured: ModelFieldRule = { rule: 'honoured' };
const output: ModelFieldRule = { rule: 'output' };
/** TextCustomField / ListCustomField (node_modules/docusign-esign/src/model): what each field does here. */
const TEXT_FIELD_RULES: Readonly<Record<string, ModelFieldRule>> = {
  fieldId: honoured, name: honoured, value: honoured, show: honoured, required: honoured,
  errorDetails: output,
  // configurationType links the field to an account-level definition (e.g. Salesforce): none exist here.
  configurationType: { rule: 'refused', why: 'account custom field configurations are not supported' },
};
const LIST_FIELD_RULES: Readonly<Record<string, ModelFieldRule>> = { ...TEXT_FIELD_RULES, listItems: honoured };

function parseField(r: WireReader, kind: 'text' | 'list', forUpdate: boolean): CustomFieldDraft | CustomFieldPatch {
  if (r.object() === undefined) r.fail(`must be a ${kind === 'text' ? 'TextCustomField' : 'ListCustomField'} object.`);
  checkModelFields(r, kind === 'text' ? 'TextCustomField' : 'ListCustomField', kind === 'text' ? TEXT_FIELD_RULES : LIST_FIELD_RULES);
  const fieldId = r.field('fieldId').optionalString(20);
  const name = forUpdate ? r.field('name').optionalString(MAX_CUSTOM_FIELD_NAME) : r.field('name').string(MAX_CUSTOM_FIELD_NAME);
  const listItems = kind === 'list' && r.field('listItems').present ? r.field('listItems').items().map((item) => item.string(MAX_CUSTOM_FIELD_VALUE)) : undefined;
  if (listItems && listItems.length > MAX_LIST_ITEMS) r.field('listItems').fail(`may hold at most ${MAX_LIST_ITEMS} items.`);
  // An update changes only what it names; a new field starts from DocuSign's defaults.
  const given = <T>(field: string, read: () => T): { [k: string]: T } | Record<string, never> => (forUpdate && !r.field(field).present ? {} : { [field]: read() });
  const fields = {
    ...(fieldId !== undefined ? { fieldId } : {}),
    kind,
    ...(name !== undefined ? { name } : {}),
    ...given('value', () => r.field('value').optionalString(MAX_CUSTOM_FIELD_VALUE) ?? ''),
    ...given('show', () => r.field('show').boolean(false)),
    ...given('required', () => r.field('required').boolean(false)),
    ...(listItems ? { listItems } : kind === 'list' && !forUpdate ? { listItems: [] } : {}),
  };
  if (forUpdate) {
    if (fieldId === undefined && name === undefined) r.fail('must name the field to change by fieldId or name.');
    return fields;
  }
  const draft = fields as CustomFieldDraft;
  assertCustomField(draft);
  return draft;
}

/**
 * A CustomFields object (EnvelopeDefinition.customFields, createCustomFields' body): text and
 * list fields in one list, each checked, names unique.
 */
export function parseCustomFields(reader: WireReader): CustomFieldDraft[] {
  const fields = readAll(reader, false) as CustomFieldDraft[];
  assertDistinctNames(fields);
  return fields;
}

/** updateCustomFields / deleteCustomFields: each field named by fieldId or name, with only what it changes. */
export function parseCustomFieldPatches(reader: WireReader): CustomFieldPatch[] {
  return readAll(reader, true);
}

function readAll(reader: WireReader, forUpdate: boolean): (CustomFieldDraft | CustomFieldPatch)[] {
  if (!reader.present) return [];
  checkModelFields(reader, 'CustomFields', { textCustomFields: honoured, listCustomFields: honoured });
  const fields = [
    ...reader.field('textCustomFields').items().map((r) => parseField(r, 'text', forUpdate)),
    ...reader.field('listCustomFields').items().map((r) => parseField(r, 'list', forUpdate)),
  ];
  if (fields.length > MAX_CUSTOM_FIELDS) reader.fail(`may hold at most ${MAX_CUSTOM_FIELDS} custom fields.`);
  return fields;
}
