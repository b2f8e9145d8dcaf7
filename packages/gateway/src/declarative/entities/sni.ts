// kong/db/schema/entities/snis.lua, as data.
import type { Field, FieldTable, RecordSchema } from '../schema.ts';
import { ID, TAGS, WILDCARD_HOST } from './common.ts';

/** The SNI field table; `foreign` is how `certificate` may be written. */
export const SNI_FIELDS = (foreign: Field): FieldTable => [
  ['id', ID],
  // A host name or a wildcard ("*.example.com", "example.*", or "*" for the catch-all); unique.
  ['name', { ...WILDCARD_HOST, required: true }],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  ['tags', TAGS],
  ['certificate', foreign],
];

/** The SNI record schema. */
export function sniSchema(foreign: Field): RecordSchema {
  return { fields: SNI_FIELDS(foreign) };
}
