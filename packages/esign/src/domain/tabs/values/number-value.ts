import type { NumberTab, Tab } from '../tab.ts';
import { formatMoney } from './format-money.ts';
import { readLocaleNumber } from './parse-locale-number.ts';

/**
 * The value a number tab keeps: a tab with money keeps the amount as it writes it
 * (format-money.ts: `$123,000.00 USD` for 123000, however it was typed), as DocuSign's `value`
 * holds the formatted amount; any other value, and text that is not an amount, as typed.
 */
export function keptNumberValue(tab: NumberTab, value: string): string {
  const money = tab.locale.money;
  if (!money) return value;
  const read = readLocaleNumber(value, tab.locale);
  return read === undefined || read.decimals > 2 ? value : formatMoney(read.value, tab.locale, money);
}

/** The value any tab keeps (keptNumberValue for number tabs; the value as given for the others). */
export function keptTabValue(tab: Tab, value: string): string {
  return tab.type === 'number' || tab.type === 'numerical' ? keptNumberValue(tab, value) : value;
}

/** A numerical tab's numericalValue: the number its value holds, written plainly (123000, -2500.5), or undefined. */
export function numericalValueOf(tab: NumberTab, value: string): string | undefined {
  const n = value === '' ? undefined : readLocaleNumber(value, tab.locale)?.value;
  return n === undefined ? undefined : String(n);
}
