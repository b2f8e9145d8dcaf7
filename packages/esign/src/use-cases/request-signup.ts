import { normalizeEmail } from '../domain/email-address.ts';
import { assertPasswordAcceptable } from '../domain/password-policy.ts';
import { EsignError } from '../errors.ts';
import { signupExistingAccountMail, signupVerificationMail } from '../mail/templates/signup-mails.ts';
import { hashPassword, type PasswordHashCost } from '../security/password-hash.ts';
import { newSecretToken, sha256Hex } from '../security/secret-token.ts';
import type { Store } from '../store/index.ts';

/** How long a sign-up link works, and how many sign-up mails one address gets per hour. */
export const SIGNUP_LINK_HOURS = 24;
export const SIGNUP_MAILS_PER_HOUR = 3;

/**
 * The sign-up page's request: validates the form, then mails the address either a single-use
 * link that creates the account (with this password) or, when the address is registered, a
 * notice. The caller answers the same in every case, so the page reveals no registered address;
 * the password is hashed in every case too, so neither does its timing.
 */
export async function requestSignup(store: Store, input: { email: string; password: string; name: string; now: Date; publicUrl: string; passwordHashCost?: PasswordHashCost | undefined }): Promise<{ email: string }> {
  const email = normalizeEmail(input.email);
  assertPasswordAcceptable(input.password);
  const name = input.name.trim();
  if (name === '' || name.length > 200) throw new EsignError('INVALID_REQUEST_PARAMETER', 'A name of 1-200 characters is required.');
  const passwordHash = await hashPassword(input.password, input.passwordHashCost);
  const token = newSecretToken();
  const to = { email, name };
  await store.signups.request({
    tokenHash: sha256Hex(token), email, name, passwordHash, now: input.now,
    expiresAt: new Date(input.now.getTime() + SIGNUP_LINK_HOURS * 3_600_000), maxPerHour: SIGNUP_MAILS_PER_HOUR,
    mailFor: (registered) => registered
      ? signupExistingAccountMail({ to, loginUrl: `${input.publicUrl}/login` })
      : signupVerificationMail({ to, verifyUrl: `${input.publicUrl}/signup/verify/${token}`, validHours: SIGNUP_LINK_HOURS }),
  });
  return { email };
}
