import type { CustomField, CustomFieldDraft, CustomFieldPatch } from './custom-fields.ts';
import { addFields, patchFields, removeFields, type FieldEdit } from './custom-field-edits.ts';
import type { EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';

async function save(deps: EnvelopeDeps, accountId: string, envelopeId: string, edit: (fields: readonly CustomField[]) => FieldEdit): Promise<CustomField[]> {
  let touched: CustomField[] = [];
  await updateEnvelope(deps, accountId, envelopeId, (current) => {
    const result = edit(current.customFields ?? []);
    touched = result.touched;
    return { envelope: { ...current, customFields: result.fields, version: current.version + 1 }, signingTokens: [], mails: [], customFieldsChanged: true };
  });
  return touched;
}

/** EnvelopesApi.createCustomFields: new fields, numbered after the envelope's others. */
export function addCustomFields(deps: EnvelopeDeps, accountId: string, envelopeId: string, drafts: readonly CustomFieldDraft[]): Promise<CustomField[]> {
  return save(deps, accountId, envelopeId, (fields) => addFields(fields, drafts));
}

/** EnvelopesApi.updateCustomFields: each named field takes the values given. */
export function updateCustomFields(deps: EnvelopeDeps, accountId: string, envelopeId: string, patches: readonly CustomFieldPatch[]): Promise<CustomField[]> {
  return save(deps, accountId, envelopeId, (fields) => patchFields(fields, patches, 'envelope'));
}

/** EnvelopesApi.deleteCustomFields: the named fields go. */
export function deleteCustomFields(deps: EnvelopeDeps, accountId: string, envelopeId: string, patches: readonly CustomFieldPatch[]): Promise<CustomField[]> {
  return save(deps, accountId, envelopeId, (fields) => removeFields(fields, patches, 'envelope'));
}
