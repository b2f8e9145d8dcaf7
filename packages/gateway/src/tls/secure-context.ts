import { createSecureContext, type SecureContext } from 'node:tls';

/** TLS 1.2+ only; every context carries it, SNI-selected ones included. */
export const MIN_TLS_VERSION = 'TLSv1.2';

/**
 * The TLS context of a certificate (chain) and its key, as the proxy listeners serve it. Throws
 * what OpenSSL refuses, beyond what parsing the PEMs shows: a key below its security level
 * ("ee key too small"), a digest it no longer accepts. The declarative validation calls it too,
 * so a configuration that passed can always be loaded.
 */
export function secureContextFor(cert: string | string[], key: string | string[]): SecureContext {
  return createSecureContext({ cert, key, minVersion: MIN_TLS_VERSION });
}
