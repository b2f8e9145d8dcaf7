// kong/plugins/jwt/daos.lua, as data: a consumer's JWT credential. `key` (the token's `iss`, or
// the configured claim) and `secret` are generated when absent; the asymmetric algorithms
// need a public key that parses.
import { createPublicKey } from 'node:crypto';
import type { Field, RecordSchema } from '../schema.ts';
import { conditional } from '../schema.ts';
import { credentialSchema } from './credentials.ts';

/** Every algorithm Kong's jwt_secrets accept. */
export const JWT_ALGORITHMS = ['HS256', 'HS384', 'HS512', 'RS256', 'RS384', 'RS512', 'ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'EdDSA'] as const;

// Kong's conditional names RS*, PS* and EdDSA (not ES*: an ES secret without a key loads and
// answers "Invalid key/secret").
const NEEDS_PUBLIC_KEY = /^(RS256|RS384|RS512|PS256|PS384|PS512|EdDSA)$/;

/** Kong's validate_ssl_key: the text must parse as a key (a private key yields its public half). */
function invalidKey(pem: string): string | undefined {
  try {
    createPublicKey(pem);
    return undefined;
  } catch {
    return 'invalid key';
  }
}

const PUBLIC_KEY: Field = { type: 'string', required: true, custom: invalidKey };

/** jwt_secrets. */
export function jwtSecretSchema(foreign: Field): RecordSchema {
  return credentialSchema(foreign, [
    ['key', { type: 'string' }],
    ['secret', { type: 'string' }],
    ['rsa_public_key', { type: 'string' }],
    ['algorithm', { type: 'string', default: 'HS256', oneOf: JWT_ALGORITHMS }],
  ], { checks: [conditional('algorithm', (v) => typeof v === 'string' && NEEDS_PUBLIC_KEY.test(v), 'rsa_public_key', PUBLIC_KEY)] });
}
