import type { Money, NumberLocale } from '../tab.ts';

/**
 * An amount as a Currency tab with money writes it (NumberLocale.money): two decimals, the
 * digits grouped by three in the tab's separators, laid out by the positive or negative format
 * (symbol, sign, parentheses), then the currency code when useLongCurrencyFormat asks for it:
 * 123000 in csym_1_comma_234_comma_567_period_89 with usd is `$123,000.00 USD`. An amount that
 * rounds to zero is written as positive. The signing page's script writes the same text
 * (tab-rules-script.ts `formatMoney`).
 */
export function formatMoney(n: number, locale: NumberLocale, money: Money): string {
  const fixed = Math.abs(n).toLocaleString('en-US', { useGrouping: false, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const [integer = '0', cents = '00'] = fixed.split('.');
  const group = locale.group === '\u00a0' || locale.group === '\u202f' ? ' ' : locale.group;
  const amount = `${integer.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${locale.decimal}${cents}`;
  const pieces = n < 0 && /[1-9]/.test(fixed) ? money.negative : money.positive;
  const text = pieces.map((p) => (p === 'amount' ? amount : p === 'symbol' ? money.symbol : p === 'minus' ? '-' : p)).join('');
  return money.long ? `${text} ${money.code}` : text;
}

/** How the tab asks for numbers in its messages: 1234.5 as the tab writes it. */
export function numberExample(locale: NumberLocale): string {
  return locale.money ? formatMoney(1234.5, locale, locale.money) : (1234.5).toLocaleString(locale.cultureName, { minimumFractionDigits: 1 });
}
