import { EsignError } from '../../errors.ts';
import { assertCustomField, assertDistinctNames, MAX_CUSTOM_FIELDS, type CustomField, type CustomFieldDraft } from '../envelope/custom-fields.ts';
import type { AccountSettingsStore } from './account-settings-ports.ts';

/**
 * Account custom fields (AccountsApi list/create/update/deleteCustomField): envelope custom
 * fields the account defines once; every new envelope of the account starts with them
 * (`inheritAccountFields`), as DocuSign's do. Same shape as an envelope's (custom-fields.ts).
 */
export interface AccountCustomFieldStore {
  list(accountId: string): Promise<CustomField[]>;
  /** Stores a new field under the next free numeric fieldId of the account; returns it. */
  insert(accountId: string, field: CustomFieldDraft, now: Date): Promise<CustomField>;
  /** Replaces a field; false when the account has no such field. */
  replace(accountId: string, field: CustomField): Promise<boolean>;
  remove(accountId: string, fieldId: string): Promise<boolean>;
}

export type AccountCustomFieldDeps = {
  readonly fields: AccountCustomFieldStore;
  readonly accounts: Pick<AccountSettingsStore, 'isAdmin'>;
  readonly clock: () => Date;
};

// DocuSign lets account administrators manage account custom fields (eSignature Admin, "Envelope custom fields").
async function assertAdmin(deps: AccountCustomFieldDeps, userId: string, accountId: string): Promise<void> {
  if (!(await deps.accounts.isAdmin(userId, accountId))) throw new EsignError('USER_LACKS_PERMISSIONS', 'Only the account\'s administrator may change its custom fields.');
}

function notFound(fieldId: string): EsignError {
  return new EsignError('INVALID_REQUEST_PARAMETER', `customFieldId "${fieldId}" is not a custom field of this account.`);
}

export async function createAccountCustomField(deps: AccountCustomFieldDeps, input: { userId: string; accountId: string; field: CustomFieldDraft }): Promise<CustomField[]> {
  await assertAdmin(deps, input.userId, input.accountId);
  const existing = await deps.fields.list(input.accountId);
  if (existing.length >= MAX_CUSTOM_FIELDS) throw new EsignError('INVALID_REQUEST_BODY', `an account may hold at most ${MAX_CUSTOM_FIELDS} custom fields.`);
  assertCustomField(input.field);
  assertDistinctNames([...existing, input.field]);
  await deps.fields.insert(input.accountId, input.field, deps.clock());
  return deps.fields.list(input.accountId);
}

/** updateCustomField: the field named in the path takes what the body gives; its kind stays. */
export async function updateAccountCustomField(deps: AccountCustomFieldDeps, input: { userId: string; accountId: string; fieldId: string; patch: Partial<Omit<CustomField, 'fieldId' | 'kind'>> }): Promise<CustomField[]> {
  await assertAdmin(deps, input.userId, input.accountId);
  const existing = await deps.fields.list(input.accountId);
  const current = existing.find((f) => f.fieldId === input.fieldId);
  if (!current) throw notFound(input.fieldId);
  const next: CustomField = { ...current, ...input.patch, fieldId: current.fieldId, kind: current.kind };
  assertCustomField(next);
  assertDistinctNames(existing.map((f) => (f.fieldId === next.fieldId ? next : f)));
  await deps.fields.replace(input.accountId, next);
  return deps.fields.list(input.accountId);
}

export async function deleteAccountCustomField(deps: AccountCustomFieldDeps, input: { userId: string; accountId: string; fieldId: string }): Promise<void> {
  await assertAdmin(deps, input.userId, input.accountId);
  if (!(await deps.fields.remove(input.accountId, input.fieldId))) throw notFound(input.fieldId);
}

/**
 * A new envelope's custom fields: the account's first, each with the envelope's value when the
 * envelope names it too (names case folded), required when either says so, the account's list
 * items unless the envelope gives its own; then the envelope's other fields. Envelopes made
 * before a field was defined keep what they had.
 */
export function inheritAccountFields(account: readonly CustomField[], own: readonly CustomFieldDraft[]): CustomFieldDraft[] {
  const ownByName = new Map(own.map((f) => [f.name.toLowerCase(), f]));
  const inherited = account.map(({ fieldId: _id, ...field }): CustomFieldDraft => {
    const mine = ownByName.get(field.name.toLowerCase());
    if (!mine) return field;
    const listItems = mine.listItems && mine.listItems.length > 0 ? mine.listItems : field.listItems;
    return { ...field, value: mine.value, show: mine.show, required: field.required || mine.required, ...(listItems ? { listItems } : {}) };
  });
  const names = new Set(account.map((f) => f.name.toLowerCase()));
  const merged = [...inherited, ...own.filter((f) => !names.has(f.name.toLowerCase()))];
  merged.forEach(assertCustomField);
  return merged;
}
