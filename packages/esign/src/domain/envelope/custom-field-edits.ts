import { EsignError } from '../../errors.ts';
import { assertCustomField, assertDistinctNames, type CustomField, type CustomFieldDraft, type CustomFieldPatch } from './custom-fields.ts';

/**
 * The custom field calls (createCustomFields, updateCustomFields, deleteCustomFields) as pure
 * edits of a field list, shared by envelopes (change-custom-fields.ts) and templates
 * (domain/templates/template-custom-fields.ts). Each returns the new list and the fields it
 * touched (what the call answers); `owner` names the envelope or template in errors.
 */
export type FieldEdit = { readonly fields: CustomField[]; readonly touched: CustomField[] };

/** The field a patch names: by fieldId, else by name (case folded), of the same kind. */
function find(fields: readonly CustomField[], p: CustomFieldPatch, owner: string): CustomField {
  const found = p.fieldId !== undefined ? fields.find((f) => f.fieldId === p.fieldId) : fields.find((f) => f.name.toLowerCase() === (p.name ?? '').toLowerCase());
  const label = p.fieldId !== undefined ? `fieldId "${p.fieldId}"` : `name "${p.name ?? ''}"`;
  if (!found || found.kind !== p.kind) throw new EsignError('INVALID_REQUEST_BODY', `${p.kind === 'text' ? 'textCustomFields' : 'listCustomFields'}: ${label} is not a ${p.kind} custom field of the ${owner}.`);
  return found;
}

function checked(edit: FieldEdit): FieldEdit {
  assertDistinctNames(edit.fields);
  return edit;
}

/** New fields, numbered after the others. */
export function addFields(fields: readonly CustomField[], drafts: readonly CustomFieldDraft[]): FieldEdit {
  let next = Math.max(0, ...fields.map((f) => Number(f.fieldId) || 0)) + 1;
  const added = drafts.map(({ fieldId: _ignored, ...d }) => ({ ...d, fieldId: String(next++) }));
  return checked({ fields: [...fields, ...added], touched: added });
}

/** Each named field takes the values given. */
export function patchFields(fields: readonly CustomField[], patches: readonly CustomFieldPatch[], owner: string): FieldEdit {
  const byId = new Map(patches.map((patch) => {
    const field = find(fields, patch, owner);
    const { kind: _k, fieldId: _f, name: _n, ...values } = patch;
    const next: CustomField = { ...field, ...values, ...(patch.fieldId !== undefined && patch.name !== undefined ? { name: patch.name } : {}) };
    assertCustomField(next);
    return [field.fieldId, next] as const;
  }));
  return checked({ fields: fields.map((f) => byId.get(f.fieldId) ?? f), touched: [...byId.values()] });
}

/** The named fields go. */
export function removeFields(fields: readonly CustomField[], patches: readonly CustomFieldPatch[], owner: string): FieldEdit {
  const removed = patches.map((p) => find(fields, p, owner));
  const ids = new Set(removed.map((f) => f.fieldId));
  return checked({ fields: fields.filter((f) => !ids.has(f.fieldId)), touched: removed });
}
