import { EsignError } from '../../errors.ts';
import { assertCustomField, assertDistinctNames, type CustomField, type CustomFieldDraft, type CustomFieldPatch } from './custom-fields.ts';
import type { Envelope } from './envelope.ts';
import type { EnvelopeDeps } from './ports.ts';
import { updateEnvelope } from './update-envelope.ts';

/** The field a patch names: by fieldId, else by name (case folded), of the same kind. */
function find(fields: readonly CustomField[], p: CustomFieldPatch): CustomField {
  const found = p.fieldId !== undefined ? fields.find((f) => f.fieldId === p.fieldId) : fields.find((f) => f.name.toLowerCase() === (p.name ?? '').toLowerCase());
  const label = p.fieldId !== undefined ? `fieldId "${p.fieldId}"` : `name "${p.name ?? ''}"`;
  if (!found || found.kind !== p.kind) throw new EsignError('INVALID_REQUEST_BODY', `${p.kind === 'text' ? 'textCustomFields' : 'listCustomFields'}: ${label} is not a ${p.kind} custom field of the envelope.`);
  return found;
}

function save(deps: EnvelopeDeps, accountId: string, envelopeId: string, edit: (fields: readonly CustomField[]) => CustomField[]): Promise<Envelope> {
  return updateEnvelope(deps, accountId, envelopeId, (current) => {
    const customFields = edit(current.customFields ?? []);
    assertDistinctNames(customFields);
    return { envelope: { ...current, customFields, version: current.version + 1 }, signingTokens: [], mails: [], customFieldsChanged: true };
  });
}

/** EnvelopesApi.createCustomFields: new fields, numbered after the envelope's others. */
export async function addCustomFields(deps: EnvelopeDeps, accountId: string, envelopeId: string, drafts: readonly CustomFieldDraft[]): Promise<CustomField[]> {
  let added: CustomField[] = [];
  await save(deps, accountId, envelopeId, (fields) => {
    let next = Math.max(0, ...fields.map((f) => Number(f.fieldId) || 0)) + 1;
    added = drafts.map(({ fieldId: _ignored, ...d }) => ({ ...d, fieldId: String(next++) }));
    return [...fields, ...added];
  });
  return added;
}

/** EnvelopesApi.updateCustomFields: each named field takes the values given. */
export async function updateCustomFields(deps: EnvelopeDeps, accountId: string, envelopeId: string, patches: readonly CustomFieldPatch[]): Promise<CustomField[]> {
  let changed: CustomField[] = [];
  await save(deps, accountId, envelopeId, (fields) => {
    const targets = patches.map((p) => ({ patch: p, field: find(fields, p) }));
    const byId = new Map(targets.map(({ patch, field }) => {
      const { kind: _k, fieldId: _f, name: _n, ...values } = patch;
      const next: CustomField = { ...field, ...values, ...(patch.fieldId !== undefined && patch.name !== undefined ? { name: patch.name } : {}) };
      assertCustomField(next);
      return [field.fieldId, next] as const;
    }));
    changed = [...byId.values()];
    return fields.map((f) => byId.get(f.fieldId) ?? f);
  });
  return changed;
}

/** EnvelopesApi.deleteCustomFields: the named fields go. */
export async function deleteCustomFields(deps: EnvelopeDeps, accountId: string, envelopeId: string, patches: readonly CustomFieldPatch[]): Promise<CustomField[]> {
  let removed: CustomField[] = [];
  await save(deps, accountId, envelopeId, (fields) => {
    removed = patches.map((p) => find(fields, p));
    const ids = new Set(removed.map((f) => f.fieldId));
    return fields.filter((f) => !ids.has(f.fieldId));
  });
  return removed;
}
