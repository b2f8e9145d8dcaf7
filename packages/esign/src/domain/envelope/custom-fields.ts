import { EsignError } from '../../errors.ts';

/**
 * Envelope custom fields (DocuSign's CustomFields: textCustomFields and listCustomFields): the
 * sender's own metadata on an envelope, which DocuSign shows to the sender, returns with the
 * envelope (include=custom_fields), sends in Connect messages and never shows to recipients.
 */
export type CustomField = {
  readonly fieldId: string;
  readonly kind: 'text' | 'list';
  readonly name: string;
  readonly value: string;
  /** DocuSign's `show`: the sender's display of the field. */
  readonly show: boolean;
  /** DocuSign's `required`: a value is needed before the envelope is sent. */
  readonly required: boolean;
  /** A list field's choices; its value is one of them. */
  readonly listItems?: readonly string[];
};

/** A field as asked for: its id, when it names an existing field (updates, deletes). */
export type CustomFieldDraft = Omit<CustomField, 'fieldId'> & { readonly fieldId?: string };

/** What updateCustomFields changes of one field, named by fieldId or (else) by name. */
export type CustomFieldPatch = { readonly kind: 'text' | 'list'; readonly fieldId?: string; readonly name?: string } & Partial<Pick<CustomField, 'value' | 'show' | 'required' | 'listItems'>>;

export const MAX_CUSTOM_FIELDS = 100;
export const MAX_CUSTOM_FIELD_NAME = 100;
// DocuSign's text custom field values are bounded; this one is ours, generous for metadata.
export const MAX_CUSTOM_FIELD_VALUE = 1000;
export const MAX_LIST_ITEMS = 100;

/** A list field's value must be one of its items (an empty value is no value yet). */
export function assertCustomField(f: CustomFieldDraft): void {
  if (f.kind === 'list' && f.value !== '' && f.listItems && f.listItems.length > 0 && !f.listItems.includes(f.value)) {
    throw new EsignError('INVALID_REQUEST_BODY', `listCustomFields "${f.name}": value "${f.value}" is not one of its listItems.`);
  }
}

/** Names are unique among an envelope's custom fields (case folded, as DocuSign matches them by name). */
export function assertDistinctNames(fields: readonly { readonly name: string }[]): void {
  const seen = new Set<string>();
  for (const f of fields) {
    const key = f.name.toLowerCase();
    if (seen.has(key)) throw new EsignError('INVALID_REQUEST_BODY', `two custom fields are named "${f.name}".`);
    seen.add(key);
  }
  if (fields.length > MAX_CUSTOM_FIELDS) throw new EsignError('INVALID_REQUEST_BODY', `an envelope may hold at most ${MAX_CUSTOM_FIELDS} custom fields.`);
}

/** Sending needs every required field to have a value. */
export function assertRequiredValues(fields: readonly Pick<CustomField, 'name' | 'value' | 'required'>[]): void {
  const missing = fields.filter((f) => f.required && f.value.trim() === '').map((f) => f.name);
  if (missing.length > 0) throw new EsignError('ENVELOPE_IS_INCOMPLETE', `The required custom field${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')} ha${missing.length > 1 ? 've' : 's'} no value.`);
}
