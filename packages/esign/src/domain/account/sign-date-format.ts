/**
 * DocuSign's account signing date and time formats (AccountSettingsInformation.signDateFormat
 * and signTimeFormat in node_modules/docusign-esign/src/model/): .NET-style patterns, as DocuSign's
 * Regional Settings list them. These are the ones this service writes; any other pattern is
 * refused by name when the account is updated (docs/esign-account-settings.md).
 */
export const SIGN_DATE_FORMATS = [
  'MM/dd/yyyy', 'M/d/yyyy', 'dd/MM/yyyy', 'd/M/yyyy', 'yyyy/MM/dd', 'yyyy-MM-dd', 'MM-dd-yyyy', 'dd-MM-yyyy',
  'dd.MM.yyyy', 'd.M.yyyy', 'MMM d, yyyy', 'MMMM d, yyyy', 'd MMM yyyy', 'd MMMM yyyy', 'dd-MMM-yyyy',
] as const;
export type SignDateFormat = (typeof SIGN_DATE_FORMATS)[number];

/** `none`: DocuSign's value for "no time", the date alone. */
export const SIGN_TIME_FORMATS = ['h:mm tt', 'h:mm:ss tt', 'hh:mm tt', 'hh:mm:ss tt', 'HH:mm', 'HH:mm:ss', 'none'] as const;
export type SignTimeFormat = (typeof SIGN_TIME_FORMATS)[number];

/** DocuSign's default, which is what dates were written as before accounts had a setting. */
export const DEFAULT_SIGN_DATE_FORMAT: SignDateFormat = 'MM/dd/yyyy';

export const isSignDateFormat = (v: string): v is SignDateFormat => (SIGN_DATE_FORMATS as readonly string[]).includes(v);
export const isSignTimeFormat = (v: string): v is SignTimeFormat => (SIGN_TIME_FORMATS as readonly string[]).includes(v);

// Month names stay English whatever the language: DocuSign's own patterns are culture-invariant
// unless signDateTimeAccountLanguageOverride asks otherwise, which this service refuses.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
// Longest token first, so `MMMM` is never read as `MM` twice.
const DATE_TOKENS = /yyyy|MMMM|MMM|MM|M|dd|d/g;
const TIME_TOKENS = /HH|H|hh|h|mm|ss|tt/g;
const pad = (n: number) => String(n).padStart(2, '0');

/** A calendar day (UTC, as every date this service writes) in one of the formats above. */
export function formatSignDate(at: Date, format: SignDateFormat): string {
  const y = at.getUTCFullYear();
  const m = at.getUTCMonth();
  const d = at.getUTCDate();
  return format.replace(DATE_TOKENS, (token) => {
    switch (token) {
      case 'yyyy': return String(y).padStart(4, '0');
      case 'MMMM': return MONTHS[m] ?? '';
      case 'MMM': return (MONTHS[m] ?? '').slice(0, 3);
      case 'MM': return pad(m + 1);
      case 'M': return String(m + 1);
      case 'dd': return pad(d);
      default: return String(d);
    }
  });
}

/** A time of day (UTC) in one of the formats above; `none` is the empty string. */
export function formatSignTime(at: Date, format: SignTimeFormat): string {
  if (format === 'none') return '';
  const h = at.getUTCHours();
  const h12 = h % 12 === 0 ? 12 : h % 12;
  return format.replace(TIME_TOKENS, (token) => {
    switch (token) {
      case 'HH': return pad(h);
      case 'H': return String(h);
      case 'hh': return pad(h12);
      case 'h': return String(h12);
      case 'mm': return pad(at.getUTCMinutes());
      case 'ss': return pad(at.getUTCSeconds());
      default: return h < 12 ? 'AM' : 'PM';
    }
  });
}
