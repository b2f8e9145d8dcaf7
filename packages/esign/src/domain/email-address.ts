import { EsignError } from '../errors.ts';

// Deliberately loose (one @, a dot in the domain, no spaces): the mailbox is the real check.
const EMAIL = /^[^\s@]{1,64}@[^\s@]+\.[^\s@]+$/;

/** Trims and lower-cases an e-mail address (accounts are looked up by it); throws when malformed. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw new EsignError('INVALID_EMAIL_ADDRESS', `"${raw}" is not an e-mail address.`);
  return email;
}
