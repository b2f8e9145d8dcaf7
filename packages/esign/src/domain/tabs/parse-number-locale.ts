import { parseCurrencyFormat, type CurrencyLayout } from './parse-currency-format.ts';
import type { Money, MoneyPiece, NumberLocale } from './tab.ts';
import type { WireField } from './wire-field.ts';

/** DocuSign's default culture. */
export const DEFAULT_LOCALE: NumberLocale = { cultureName: 'en-US', decimal: '.', group: ',' };

/** The LocalePolicyTab fields that describe a Currency tab's money. */
const CURRENCY_FIELDS = ['currencyCode', 'currencyPositiveFormat', 'currencyNegativeFormat', 'useLongCurrencyFormat'] as const;

/** The ISO 4217 codes the runtime's Intl formats (its symbol in each culture comes from there too). */
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf('currency'));

const blank = (v: unknown) => v === undefined || v === null || v === '';

/**
 * The culture a number is typed in (LocalePolicyTab.cultureName, e.g. de-DE writes 1.234,5),
 * its separators taken from Intl; and, on a numerical tab whose validationType is Currency
 * (`currency`), its money: currencyCode, currencyPositiveFormat and currencyNegativeFormat
 * (parse-currency-format.ts; their separators replace the culture's) and useLongCurrencyFormat.
 * Every other localePolicy field (date, time, name and address formats) is refused, naming it;
 * so are currency fields on any other tab, a currency without a code, a code Intl does not know,
 * a format this service cannot read, and formats whose separators disagree (as DocuSign refuses them).
 */
export function parseNumberLocale(tab: WireField, currency = false): NumberLocale {
  const policy = tab.field('localePolicy');
  const fields = policy.object();
  if (fields === undefined) return DEFAULT_LOCALE;
  const known = new Set(['culturename', ...CURRENCY_FIELDS.map((f) => f.toLowerCase())]);
  const others = Object.entries(fields).filter(([k, v]) => !known.has(k.toLowerCase()) && !blank(v)).map(([k]) => k);
  if (others.length > 0) policy.fail(`supports only cultureName and, on a numerical tab whose validationType is Currency, ${CURRENCY_FIELDS.join(', ')}; not supported: ${others.join(', ')}.`);
  const culture = parseCulture(policy);
  const asked = CURRENCY_FIELDS.filter((f) => (f === 'useLongCurrencyFormat' ? policy.field(f).boolean(false) : !blank(policy.field(f).value)));
  if (asked.length === 0) return culture;
  if (!currency) return policy.fail(`${asked.join(', ')}: currency formats apply only to a numerical tab whose validationType is Currency.`);
  const money = parseMoney(policy, culture);
  return { ...culture, ...money.separators, money: money.money };
}

function parseCulture(policy: WireField): NumberLocale {
  const cultureName = policy.field('cultureName').optionalString(35);
  if (cultureName === undefined) return DEFAULT_LOCALE;
  let parts: Intl.NumberFormatPart[];
  try {
    parts = new Intl.NumberFormat(intlName(cultureName)).formatToParts(12345.6);
  } catch {
    return policy.field('cultureName').fail(`is not a culture name, got "${cultureName}".`);
  }
  return { cultureName, decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.', group: parts.find((p) => p.type === 'group')?.value ?? ',' };
}

const intlName = (cultureName: string) => cultureName.replace('_', '-');

function parseMoney(policy: WireField, culture: NumberLocale): { money: Money; separators: { group: string; decimal: string } | undefined } {
  const codeField = policy.field('currencyCode');
  const currencyCode = codeField.optionalString(16);
  if (currencyCode === undefined) {
    return policy.fail('asks for a currency format without currencyCode: name the currency (an ISO 4217 code such as usd or eur).');
  }
  const code = currencyCode.toUpperCase();
  if (!/^[A-Z]{3}$/.test(code) || !CURRENCIES.has(code)) return codeField.fail(`is not an ISO 4217 currency code this service knows, got "${currencyCode}".`);
  const format = (name: 'currencyPositiveFormat' | 'currencyNegativeFormat', sign: 'positive' | 'negative'): { text: string; layout: CurrencyLayout } | undefined => {
    const field = policy.field(name);
    const text = field.optionalString(100);
    if (text === undefined) return undefined;
    const layout = parseCurrencyFormat(text, sign);
    return typeof layout === 'string' ? field.fail(`"${text}" ${layout}`) : { text, layout };
  };
  const positive = format('currencyPositiveFormat', 'positive');
  const negative = format('currencyNegativeFormat', 'negative');
  if (positive && negative && (positive.layout.group !== negative.layout.group || positive.layout.decimal !== negative.layout.decimal)) {
    policy.fail(`currencyPositiveFormat "${positive.text}" and currencyNegativeFormat "${negative.text}" disagree on the separators: one amount cannot be written both ways.`);
  }
  // A format not given follows the other (the sign added or taken away), or else the culture.
  const fromCulture = positive || negative ? undefined : cultureLayout(culture.cultureName, code);
  const positivePieces = positive?.layout.pieces ?? negative?.layout.pieces.filter((p) => p !== 'minus' && p !== '(' && p !== ')') ?? fromCulture!;
  const negativePieces = negative?.layout.pieces ?? ['minus', ...positivePieces];
  const layout = positive?.layout ?? negative?.layout;
  const symbol = new Intl.NumberFormat(intlName(culture.cultureName), { style: 'currency', currency: code }).formatToParts(1).find((p) => p.type === 'currency')?.value ?? code;
  return {
    money: {
      currencyCode, code, symbol, positive: positivePieces, negative: negativePieces,
      ...(positive ? { positiveFormat: positive.text } : {}),
      ...(negative ? { negativeFormat: negative.text } : {}),
      long: policy.field('useLongCurrencyFormat').boolean(false),
    },
    separators: layout ? { group: layout.group, decimal: layout.decimal } : undefined,
  };
}

/** Where the culture writes this currency's symbol: before or after the digits, with or without a space. */
function cultureLayout(cultureName: string, code: string): MoneyPiece[] {
  const parts = new Intl.NumberFormat(intlName(cultureName), { style: 'currency', currency: code }).formatToParts(1234.5);
  const symbol = parts.findIndex((p) => p.type === 'currency');
  const digits = parts.findIndex((p) => p.type === 'integer');
  const between = parts.slice(Math.min(symbol, digits) + 1, Math.max(symbol, digits)).filter((p) => p.type === 'literal');
  const spaced: MoneyPiece[] = between.some((p) => /\s/.test(p.value)) ? [' '] : [];
  return symbol < digits ? ['symbol', ...spaced, 'amount'] : ['amount', ...spaced, 'symbol'];
}
