import type { CustomField } from '../domain/envelope/custom-fields.ts';
import type { WireCustomField, WireCustomFields } from './wire-types.ts';

function one(f: CustomField): WireCustomField {
  return { fieldId: f.fieldId, name: f.name, value: f.value, show: String(f.show), required: String(f.required), ...(f.kind === 'list' ? { listItems: [...(f.listItems ?? [])] } : {}) };
}

/** An envelope's custom fields as DocuSign's CustomFields: both lists always present (the SDK's models throw on a null list). */
export function toWireCustomFields(fields: readonly CustomField[]): WireCustomFields {
  return { textCustomFields: fields.filter((f) => f.kind === 'text').map(one), listCustomFields: fields.filter((f) => f.kind === 'list').map(one) };
}
