import { EsignError } from '../errors.ts';

/** NIST SP 800-63B §5.1.1.2: at least 8 characters; a generous upper bound keeps scrypt's input sane. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 256;

/** Throws INVALID_PASSWORD unless the password meets the length policy. */
export function assertPasswordAcceptable(password: string): void {
  if (password.length < PASSWORD_MIN) throw new EsignError('INVALID_PASSWORD', `It must have at least ${PASSWORD_MIN} characters.`);
  if (password.length > PASSWORD_MAX) throw new EsignError('INVALID_PASSWORD', `It must have at most ${PASSWORD_MAX} characters.`);
}
