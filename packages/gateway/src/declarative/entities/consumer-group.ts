// Kong Gateway's consumer_groups entity and its membership (consumer_group_consumers), as Kong
// documents them (developer.konghq.com/gateway/entities/consumer-group): a named, tagged group
// that plugins may be scoped to, and a consumer's membership in it. Kong's open-source tree has
// no such entity; the fields follow Kong's documented entity and admin API.
import type { Field, FieldTable, RecordSchema } from '../schema.ts';
import { atLeastOneOf } from '../schema.ts';
import { ID, TAGS } from './common.ts';

/** The consumer group field table: `name` is required and unique (the endpoint key). */
export const CONSUMER_GROUP_FIELDS: FieldTable = [
  ['id', ID],
  ['created_at', { type: 'integer' }],
  ['updated_at', { type: 'integer' }],
  ['name', { type: 'string', required: true }],
  ['tags', TAGS],
];

/** The consumer group record schema. */
export const CONSUMER_GROUP_SCHEMA: RecordSchema = { fields: CONSUMER_GROUP_FIELDS };

/**
 * A membership (Kong's consumer_group_consumers, as its declarative export lists them): a
 * consumer and a group, each a reference. Kong keys it by the pair; here it also has an id.
 */
export function consumerGroupConsumerSchema(foreign: Field): RecordSchema {
  return {
    fields: [
      ['id', ID],
      ['created_at', { type: 'integer' }],
      ['consumer', foreign],
      ['consumer_group', foreign],
    ],
  };
}

/** One entry of a consumer's `groups` (decK's file format): the group by name or id. */
export const GROUP_REFERENCE: RecordSchema = {
  fields: [
    ['id', ID],
    ['name', { type: 'string' }],
  ],
  checks: [atLeastOneOf(['id', 'name'])],
};
