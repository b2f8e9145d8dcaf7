import type { MoneyPiece, NumberLocale } from '../tab.ts';

/** A number read from text, and how many decimals it was written with. */
export type LocaleNumber = { readonly value: number; readonly decimals: number };

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/ /g, '[ \\u00a0\\u202f]');

/** The digits in the locale's separators: two groups, the integer part and the decimals. */
function digitsShape(locale: NumberLocale): string {
  const group = escape(locale.group === '\u00a0' || locale.group === '\u202f' ? ' ' : locale.group);
  return `(\\d{1,3}(?:${group}\\d{3})+|\\d+)?(?:${escape(locale.decimal)}(\\d+))?`;
}

function pieceShape(piece: MoneyPiece, symbol: string, digits: string): string {
  switch (piece) {
    case 'amount': return digits;
    case 'symbol': return escape(symbol);
    case 'minus': return '-';
    default: return escape(piece);
  }
}

function numberOf(negative: boolean, integer: string | undefined, decimals: string | undefined): LocaleNumber | undefined {
  if (integer === undefined && decimals === undefined) return undefined;
  const value = Number(`${negative ? '-' : ''}${(integer ?? '0').replace(/\D/g, '')}.${decimals ?? '0'}`);
  return Number.isFinite(value) ? { value, decimals: decimals?.length ?? 0 } : undefined;
}

/**
 * A number as a signer types it in the tab's culture: an optional sign, digits with optional
 * group separators every three digits, an optional decimal part. A tab with money also reads
 * the amount as it writes it (format-money.ts): its positive or negative layout, or a minus
 * before the positive one, a space allowed between the pieces, the currency code after it or
 * not. Answers undefined for anything else (letters, two decimal separators, misplaced groups,
 * another symbol).
 */
export function readLocaleNumber(text: string, locale: NumberLocale): LocaleNumber | undefined {
  const t = text.trim().replace(/\u00a0|\u202f/g, ' ');
  const digits = digitsShape(locale);
  const plain = new RegExp(`^([-+])?${digits}$`).exec(t);
  if (plain) return numberOf(plain[1] === '-', plain[2], plain[3]);
  const money = locale.money;
  if (!money) return undefined;
  // With the code after it or without (a symbol may be the code itself: CHF).
  const bodies = [t, t.replace(new RegExp(` ?${money.code}$`, 'i'), '')];
  const layouts: [readonly MoneyPiece[], boolean][] = [[money.positive, false], [money.negative, true], [['minus', ...money.positive], true]];
  for (const body of bodies) {
    for (const [pieces, negative] of layouts) {
      const shape = pieces.filter((p) => p !== ' ').map((p) => pieceShape(p, money.symbol, digits)).join(' ?');
      const m = new RegExp(`^${shape}$`).exec(body);
      if (m) return numberOf(negative, m[1], m[2]);
    }
  }
  return undefined;
}

/** The number a tab's text holds (readLocaleNumber), or undefined. */
export function parseLocaleNumber(text: string, locale: NumberLocale): number | undefined {
  return readLocaleNumber(text, locale)?.value;
}
