// The admin token (Kong Enterprise RBAC's `Kong-Admin-Token` header): hashed once at start, and
// a presented token is compared by its SHA-256 in constant time, so neither the token's length
// nor a matching prefix shows in the timing.
import { createHash, timingSafeEqual } from 'node:crypto';

/** The request header carrying the token. */
export const ADMIN_TOKEN_HEADER = 'kong-admin-token';

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest();

/** The configured token, hashed once at start for the request guard. */
export const hashAdminToken = (token: string | undefined): Buffer | undefined => (token === undefined ? undefined : sha256(token));

/** Whether a presented header value is the token whose hash is `expected`. */
export function adminTokenMatches(presented: string, expected: Buffer): boolean {
  return timingSafeEqual(sha256(presented), expected);
}
