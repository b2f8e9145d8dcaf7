import { parseDateValue } from './parse-date-value.ts';

/**
 * How dates are written on the documents: DocuSign's default account date format, MM/dd/yyyy,
 * in UTC. Accounts have no date-format setting in this service, so every account uses it
 * (docs/esign-tabs.md).
 */
export function formatAccountDate(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(at.getUTCMonth() + 1)}/${pad(at.getUTCDate())}/${at.getUTCFullYear()}`;
}

/** A date tab's value (typed as ISO or en-US) in the account's format; other text as it is. */
export function dateInAccountFormat(value: string): string {
  const d = parseDateValue(value);
  return d ? formatAccountDate(new Date(Date.UTC(d.year, d.month - 1, d.day))) : value;
}
