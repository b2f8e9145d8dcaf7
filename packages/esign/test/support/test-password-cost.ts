import type { PasswordHashCost } from '../../src/security/password-hash.ts';

/**
 * The scrypt cost of the users tests seed (N=2^10, ~3 ms a hash and a check, against ~90 ms at
 * production's 2^15): the suite seeds hundreds and logs most of them in, and what those tests
 * are about is not the hash's strength. Sign-up, invitations, access codes and
 * password-hash.test.ts still hash at production's cost, which is what any caller gets that
 * names none.
 */
export const TEST_PASSWORD_HASH_COST: PasswordHashCost = { N: 1024, r: 8, p: 1 };
