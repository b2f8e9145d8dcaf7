import type { MoneyPiece } from './tab.ts';

/** An amount's layout: its pieces in order and the separators of its digits. */
export type CurrencyLayout = { readonly pieces: readonly MoneyPiece[]; readonly group: string; readonly decimal: string };

// The separators the format names between digit groups, and those it may name before the decimals.
const GROUPS: Readonly<Record<string, string>> = { comma: ',', period: '.', space: ' ' };
const DECIMALS: Readonly<Record<string, string>> = { comma: ',', period: '.' };
// The tokens around the digits.
const AROUND: Readonly<Record<string, MoneyPiece>> = { csym: 'symbol', minus: 'minus', opar: '(', cpar: ')' };

/**
 * A DocuSign currency format (LocalePolicyTab.currencyPositiveFormat or currencyNegativeFormat):
 * tokens joined by `_` that spell how 1234567.89 is written. The digits are `1`, `234`, `567`
 * and `89` with the separators between them (`comma`, `period` or `space` between groups, the
 * same twice; `comma` or `period` before the decimals, not the group's); `csym` is where the
 * currency symbol goes, before or after the digits; a negative format also says where the sign
 * goes: `minus` (before or after the rest) or `opar` … `cpar` around the whole.
 *
 *   csym_1_comma_234_comma_567_period_89             $1,234,567.89
 *   minus_csym_1_comma_234_comma_567_period_89       -$1,234,567.89
 *   opar_csym_1_period_234_period_567_comma_89_cpar  ($1.234.567,89)
 *   1_space_234_space_567_comma_89_csym              1 234 567,89€
 *
 * Answers the layout, or why the text is not one (a sentence naming what it cannot read).
 */
export function parseCurrencyFormat(text: string, sign: 'positive' | 'negative'): CurrencyLayout | string {
  const tokens = text.trim().toLowerCase().split('_');
  const start = tokens.indexOf('1');
  const [, group, g234, group2, g567, decimal, g89] = start < 0 ? [] : tokens.slice(start, start + 7);
  if (start < 0 || g234 !== '234' || g567 !== '567' || group === undefined || group !== group2 || GROUPS[group] === undefined) {
    return 'does not spell the digits as 1, 234 and 567 with one separator (comma, period or space) between them, as in csym_1_comma_234_comma_567_period_89.';
  }
  if (decimal === undefined || DECIMALS[decimal] === undefined || g89 !== '89') {
    return decimal === undefined || AROUND[decimal] !== undefined
      ? 'writes whole amounts (no decimals after 567), which this service does not support: end the digits with _period_89 or _comma_89.'
      : 'does not end the digits with _period_89 or _comma_89.';
  }
  if (GROUPS[group] === DECIMALS[decimal]) return `uses ${group} both between groups and before the decimals.`;
  const before = tokens.slice(0, start);
  const after = tokens.slice(start + 7);
  const unknown = [...before, ...after].filter((t) => AROUND[t] === undefined);
  if (unknown.length > 0) return `has tokens this service does not know: ${unknown.map((t) => `"${t}"`).join(', ')} (it knows csym, minus, opar and cpar around the digits).`;
  const pieces: MoneyPiece[] = [...before.map((t) => AROUND[t]!), 'amount', ...after.map((t) => AROUND[t]!)];
  const count = (p: MoneyPiece) => pieces.filter((x) => x === p).length;
  if (count('symbol') !== 1) return 'must place csym (the currency symbol) once.';
  const parens = count('(') + count(')');
  if (sign === 'positive') {
    if (count('minus') > 0 || parens > 0) return 'is a positive format: it takes no minus, opar or cpar.';
  } else {
    const wrapped = parens === 2 && pieces[0] === '(' && pieces.at(-1) === ')';
    if (parens !== 0 && !wrapped) return 'must open with opar and close with cpar, around the whole amount.';
    if (wrapped ? count('minus') !== 0 : count('minus') !== 1) return 'is a negative format: it shows the sign once, as one minus or as opar … cpar.';
  }
  return { pieces, group: GROUPS[group], decimal: DECIMALS[decimal] };
}
