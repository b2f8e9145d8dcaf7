import { DEFAULT_SIGN_DATE_FORMAT, formatSignDate, type SignDateFormat } from '../../account/sign-date-format.ts';
import { parseDateValue } from './parse-date-value.ts';

/**
 * How dates are written on the documents: in the account's signDateFormat
 * (domain/account/sign-date-format.ts), else DocuSign's default MM/dd/yyyy; the UTC day
 * (docs/esign-tabs.md, docs/esign-account-settings.md).
 */
export function formatAccountDate(at: Date, format: SignDateFormat = DEFAULT_SIGN_DATE_FORMAT): string {
  return formatSignDate(at, format);
}

/**
 * A date tab's value (typed as ISO or en-US) in the account's format; any other text as it is
 * (a date signed value is written in the account's format when the recipient signs).
 */
export function dateInAccountFormat(value: string, format: SignDateFormat = DEFAULT_SIGN_DATE_FORMAT): string {
  const d = parseDateValue(value);
  return d ? formatAccountDate(new Date(Date.UTC(d.year, d.month - 1, d.day)), format) : value;
}
