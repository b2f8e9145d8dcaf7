// The credential entities of the authentication plugins (kong/plugins/<name>/daos.lua), as
// data: each belongs to a consumer, given by the parent when nested under it.
import type { Field, RecordSchema } from '../schema.ts';
import { ID, TAGS } from './common.ts';

/** keyauth_credentials (key-auth/daos.lua): `key` is generated when absent (Kong `auto`). */
export function keyauthCredentialSchema(foreign: Field): RecordSchema {
  return {
    fields: [
      ['id', ID],
      ['created_at', { type: 'integer' }],
      ['consumer', foreign],
      ['key', { type: 'string' }],
      ['tags', TAGS],
    ],
  };
}

/** basicauth_credentials (basic-auth/daos.lua): the password is hashed on load unless `_transform: false`. */
export function basicauthCredentialSchema(foreign: Field): RecordSchema {
  return {
    fields: [
      ['id', ID],
      ['created_at', { type: 'integer' }],
      ['consumer', foreign],
      ['username', { type: 'string', required: true }],
      ['password', { type: 'string', required: true }],
      ['tags', TAGS],
    ],
  };
}

/** acls (acl/daos.lua): one group membership of a consumer. */
export function aclSchema(foreign: Field): RecordSchema {
  return {
    fields: [
      ['id', ID],
      ['created_at', { type: 'integer' }],
      ['consumer', foreign],
      ['group', { type: 'string', required: true }],
      ['tags', TAGS],
    ],
  };
}

/** hmacauth_credentials (hmac-auth/daos.lua): `username` is unique; `secret` is generated when absent. */
export function hmacauthCredentialSchema(foreign: Field): RecordSchema {
  return {
    fields: [
      ['id', ID],
      ['created_at', { type: 'integer' }],
      ['consumer', foreign],
      ['username', { type: 'string', required: true }],
      ['secret', { type: 'string' }],
      ['tags', TAGS],
    ],
  };
}
