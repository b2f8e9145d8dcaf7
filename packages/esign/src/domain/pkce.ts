import { createHash, timingSafeEqual } from 'node:crypto';

// RFC 7636 §4.1: 43-128 characters from the unreserved set.
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** RFC 7636 §4.2: BASE64URL(SHA256(verifier)). */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** True when `challenge` has the S256 form (43 base64url characters). */
export function isS256Challenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/** RFC 7636 §4.6: the verifier must hash to the stored challenge (constant-time compare). */
export function pkceVerifies(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const a = Buffer.from(s256Challenge(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}
