import { EsignError } from '../errors.ts';

// Loose where it is harmless, strict where it is not. Local part: RFC 5322 §3.2.3 dot-atom
// (atext, no leading, trailing or doubled dot; Unicode letters allowed, RFC 6531), so no
// `<`, `>`, quotes, commas or control characters reach a mail header or a page. Domain:
// hostname labels (RFC 1123 §2.1: letters, digits, inner hyphens), at least two of them.
// Whether the mailbox exists is the mail server's question, not ours.
const ATEXT = "[\\p{L}\\p{N}!#$%&'*+/=?^_`{|}~-]";
const LOCAL = new RegExp(`^${ATEXT}+(\\.${ATEXT}+)*$`, 'u');
const LABEL = /^[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?$/u;

/** Trims and lower-cases an e-mail address (accounts are looked up by it); throws when malformed. */
export function normalizeEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const labels = email.slice(at + 1).split('.');
  const valid = email.length <= 254 && at > 0 && local.length <= 64 && LOCAL.test(local) && labels.length >= 2 && labels.every((l) => LABEL.test(l));
  if (!valid) throw new EsignError('INVALID_EMAIL_ADDRESS', `"${raw}" is not an e-mail address.`);
  return email;
}
