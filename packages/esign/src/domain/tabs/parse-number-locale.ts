import type { NumberLocale } from './tab.ts';
import type { WireField } from './wire-field.ts';

/** DocuSign's default culture. */
export const DEFAULT_LOCALE: NumberLocale = { cultureName: 'en-US', decimal: '.', group: ',' };

/**
 * The culture a number is typed in (LocalePolicyTab.cultureName, e.g. de-DE writes 1.234,5),
 * its separators taken from Intl. Only cultureName is implemented: any other localePolicy field
 * (date, time, currency, name and address formats) is refused, naming it.
 */
export function parseNumberLocale(tab: WireField): NumberLocale {
  const policy = tab.field('localePolicy');
  const fields = policy.object();
  if (fields === undefined) return DEFAULT_LOCALE;
  const others = Object.entries(fields).filter(([k, v]) => k !== 'cultureName' && v !== undefined && v !== null && v !== '').map(([k]) => k);
  if (others.length > 0) policy.fail(`supports only cultureName; not supported: ${others.join(', ')}.`);
  const cultureName = policy.field('cultureName').optionalString(35);
  if (cultureName === undefined) return DEFAULT_LOCALE;
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(cultureName.replace('_', '-')).formatToParts(12345.6);
  } catch {
    return policy.field('cultureName').fail(`is not a culture name, got "${cultureName}".`);
  }
  return { cultureName, decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' };
}
