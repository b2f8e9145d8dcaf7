// The credential entities of the authentication plugins (kong/plugins/<name>/daos.lua), as
// data: each belongs to a consumer, given by the parent when nested under it.
import type { Field, RecordSchema } from '../schema.ts';
import { ID, TAGS } from './common.ts';

/**
 * A credential entity: its own fields between the ones every credential has (id, created_at,
 * the owning consumer first; tags last), in Kong's field order.
 */
export function credentialSchema(foreign: Field, own: readonly [string, Field][], extra: Omit<RecordSchema, 'fields'> = {}): RecordSchema {
  return { ...extra, fields: [['id', ID], ['created_at', { type: 'integer' }], ['consumer', foreign], ...own, ['tags', TAGS]] };
}

/**
 * keyauth_credentials' `ttl` (key-auth/daos.lua `ttl = true`): the moment the credential expires,
 * in Unix seconds, as `kong config db_export` writes it (the database's expiry timestamp). DB-less
 * Kong keeps it as given (declarative_config.lua flatten) and its off strategy stops finding the
 * credential once that moment has come (strategies/off process_ttl_field). Kong leaves the field
 * unvalidated; here it is a number, and it is absent from the entity when unset, as in Kong.
 */
export const CREDENTIAL_TTL: Field = { type: 'number', omitWhenNull: true };

/** keyauth_credentials (key-auth/daos.lua): `key` is generated when absent (Kong `auto`). */
export function keyauthCredentialSchema(foreign: Field): RecordSchema {
  const schema = credentialSchema(foreign, [['key', { type: 'string' }]]);
  return { ...schema, fields: [...schema.fields, ['ttl', CREDENTIAL_TTL]] };
}

/** basicauth_credentials (basic-auth/daos.lua): the password is hashed on load unless `_transform: false`. */
export function basicauthCredentialSchema(foreign: Field): RecordSchema {
  return credentialSchema(foreign, [['username', { type: 'string', required: true }], ['password', { type: 'string', required: true }]]);
}

/** acls (acl/daos.lua): one group membership of a consumer. */
export function aclSchema(foreign: Field): RecordSchema {
  return credentialSchema(foreign, [['group', { type: 'string', required: true }]]);
}

/** hmacauth_credentials (hmac-auth/daos.lua): `username` is unique; `secret` is generated when absent. */
export function hmacauthCredentialSchema(foreign: Field): RecordSchema {
  return credentialSchema(foreign, [['username', { type: 'string', required: true }], ['secret', { type: 'string' }]]);
}
