import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { EsignError } from '../errors.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';

/** A fresh client secret: the value (shown once), its stored hash and a display hint. */
export function newAppSecret(): { secret: string; hash: string; hint: string } {
  const secret = newSecretToken();
  return { secret, hash: sha256Hex(secret), hint: secret.slice(-4) };
}

/**
 * Validates an uploaded RSA public key (PEM: SPKI, PKCS#1 or an X.509 certificate) and
 * returns it as SPKI PEM, the one form stored. At least 2048 bits (NIST SP 800-131A).
 */
export function normalizeRsaPublicKey(pem: string): string {
  let key;
  try {
    key = createPublicKey(pem.trim());
  } catch {
    throw new EsignError('INVALID_RSA_PUBLIC_KEY', 'It is not a PEM public key.');
  }
  if (key.asymmetricKeyType !== 'rsa') throw new EsignError('INVALID_RSA_PUBLIC_KEY', 'It is not an RSA key.');
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) throw new EsignError('INVALID_RSA_PUBLIC_KEY', 'It must have at least 2048 bits.');
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

/**
 * A new RSA key pair for the JWT grant, as DocuSign's console makes one: the private key is
 * shown once as PKCS#1 PEM ("BEGIN RSA PRIVATE KEY", what the SDK samples load) and only the
 * public key is kept.
 */
export function generateRsaKeyPair(): { publicKeyPem: string; privateKeyPem: string } {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
  };
}
