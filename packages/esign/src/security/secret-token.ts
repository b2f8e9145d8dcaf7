import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * A random bearer value (codes, tokens, client secrets, session ids): 256 bits, base64url,
 * so it fits in a URL, a cookie and a Basic credential without escaping.
 */
export function newSecretToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * SHA-256 of a random bearer value, as stored. These values carry 256 bits of entropy, so a
 * fast hash suffices (a slow KDF is for low-entropy passwords); a database leak reveals no
 * usable token.
 */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Constant-time string equality (length differences return false early, which leaks only length). */
export function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
