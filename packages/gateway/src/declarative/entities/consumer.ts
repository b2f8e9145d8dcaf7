// kong/db/schema/entities/consumers.lua, as data.
import type { FieldTable, RecordSchema } from '../schema.ts';
import { atLeastOneOf } from '../schema.ts';
import { ID, TAGS } from './common.ts';

/** The consumer field table. */
export const CONSUMER_FIELDS: FieldTable = [
  ['id', ID],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  // Unique; the endpoint key (/consumers/{username}) and how references name a consumer.
  ['username', { type: 'string' }],
  // Unique; the consumer's id in another system, sent upstream as X-Consumer-Custom-ID.
  ['custom_id', { type: 'string' }],
  ['tags', TAGS],
];

/** The consumer record schema. */
export const CONSUMER_SCHEMA: RecordSchema = {
  fields: CONSUMER_FIELDS,
  checks: [atLeastOneOf(['custom_id', 'username'])],
};
