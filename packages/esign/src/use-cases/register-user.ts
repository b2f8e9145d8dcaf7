import { normalizeEmail } from '../domain/email-address.ts';
import { assertPasswordAcceptable } from '../domain/password-policy.ts';
import { EsignError } from '../errors.ts';
import { hashPassword, type PasswordHashCost } from '../security/password-hash.ts';
import type { Store } from '../store/index.ts';

/**
 * Signs a user up with a new account of their own (CLI `user create` and the sign-up page).
 * `passwordHashCost`: production's scrypt cost unless given; tests' seeded users take a cheap one.
 */
export async function registerUser(
  store: Store,
  input: { email: string; password: string; name: string; accountName?: string | undefined; now: Date; passwordHashCost?: PasswordHashCost | undefined },
): Promise<{ userId: string; accountId: string }> {
  const email = normalizeEmail(input.email);
  assertPasswordAcceptable(input.password);
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw new EsignError('INVALID_REQUEST_PARAMETER', 'A name of 1-200 characters is required.');
  const created = await store.accounts.createUserWithAccount({
    email,
    name,
    passwordHash: await hashPassword(input.password, input.passwordHashCost),
    accountName: input.accountName?.trim() || name,
    now: input.now,
  });
  if (!created) throw new EsignError('USER_ALREADY_EXISTS');
  return created;
}
