import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

// N=2^15, r=8, p=1: 32 MiB and ~0.1-0.3 s per hash here; above the 2^14 that scrypt's paper
// (Percival 2009, RFC 7914 §2) gives for interactive logins. OWASP's 2^17 (128 MiB per attempt)
// would let a burst of unauthenticated login posts claim half a GiB on the libuv pool.
// Parameters are stored in each hash, so raising them later keeps old hashes verifiable.
// maxmem must cover 128*N*r bytes.
/** scrypt's cost parameters (stored in each hash, so a check uses the cost its hash was made with). */
export type PasswordHashCost = { readonly N: number; readonly r: number; readonly p: number };
/** The cost of every hash made without an explicit one: production's. */
export const PASSWORD_HASH_COST: PasswordHashCost = { N: 32_768, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...options, maxmem: 256 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/**
 * Hashes a password as `scrypt$N$r$p$salt$hash` (base64url), so parameters can grow later.
 * `cost` is production's unless a caller passes its own: only tests do, for the users they
 * seed by the hundred, whose password's strength is not what they test.
 */
export async function hashPassword(password: string, cost: PasswordHashCost = PASSWORD_HASH_COST): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Constant-time check of a password against a stored hash; false for anything malformed. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map(Number);
  if (!N || !r || !p) return false;
  const expected = Buffer.from(parts[5] ?? '', 'base64url');
  const key = await derive(password, Buffer.from(parts[4] ?? '', 'base64url'), { N, r, p });
  return key.length === expected.length && timingSafeEqual(key, expected);
}
