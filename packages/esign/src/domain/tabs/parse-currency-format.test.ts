import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../errors.ts';
import { WireReader } from '../../wire/wire-reader.ts';
import { parseCurrencyFormat } from './parse-currency-format.ts';
import { parseTabs } from './parse-tabs.ts';
import type { NumberLocale, Tab } from './tab.ts';

const WHERE = 'recipients.signers[0].tabs';
const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };
const parse = (tabs: unknown): Tab[] => parseTabs(new WireReader(WHERE, tabs), { recipientId: '1' });
const localeOf = (localePolicy: unknown, extra: Record<string, unknown> = { validationType: 'Currency' }): NumberLocale => {
  const tab = parse({ numericalTabs: [{ ...at, ...extra, localePolicy }] })[0]!;
  return tab.type === 'numerical' ? tab.locale : assert.fail('a numerical tab');
};
const refused = (pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === 'INVALID_REQUEST_BODY' && pattern.test(e.message);

// setTabValues' salary tab asks for exactly this.
const EXAMPLE = {
  cultureName: 'en-US', currencyCode: 'usd', currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89',
  currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', useLongCurrencyFormat: 'true',
};

test('currency format tokens: the digits with their separators, csym, and a negative format\'s sign', () => {
  const cases: [string, 'positive' | 'negative', string, string, string][] = [
    // format, sign, pieces, group, decimal
    ['csym_1_comma_234_comma_567_period_89', 'positive', 'symbol amount', ',', '.'],
    ['minus_csym_1_comma_234_comma_567_period_89', 'negative', 'minus symbol amount', ',', '.'],
    ['opar_csym_1_comma_234_comma_567_period_89_cpar', 'negative', '( symbol amount )', ',', '.'],
    ['csym_1_period_234_period_567_comma_89', 'positive', 'symbol amount', '.', ','],
    ['opar_csym_1_period_234_period_567_comma_89_cpar', 'negative', '( symbol amount )', '.', ','],
    ['1_comma_234_comma_567_period_89_csym', 'positive', 'amount symbol', ',', '.'],
    ['minus_1_space_234_space_567_comma_89_csym', 'negative', 'minus amount symbol', ' ', ','],
    ['1_period_234_period_567_comma_89_csym_minus', 'negative', 'amount symbol minus', '.', ','],
    ['csym_minus_1_comma_234_comma_567_period_89', 'negative', 'symbol minus amount', ',', '.'],
    ['opar_1_comma_234_comma_567_period_89_csym_cpar', 'negative', '( amount symbol )', ',', '.'],
    ['CSYM_1_COMMA_234_COMMA_567_PERIOD_89', 'positive', 'symbol amount', ',', '.'],
  ];
  for (const [format, sign, pieces, group, decimal] of cases) {
    assert.deepEqual(parseCurrencyFormat(format, sign), { pieces: pieces.split(' '), group, decimal }, format);
  }
  const bad: [string, 'positive' | 'negative', RegExp][] = [
    ['csym_1_234_567_89', 'positive', /does not spell the digits as 1, 234 and 567/],
    ['csym_1_comma_234_period_567_period_89', 'positive', /one separator/],
    ['csym_1_apos_234_apos_567_period_89', 'positive', /one separator \(comma, period or space\)/],
    ['csym_1_comma_234_comma_567', 'positive', /whole amounts .* not support/],
    ['1_comma_234_comma_567_csym', 'positive', /whole amounts/],
    ['csym_1_comma_234_comma_567_period_90', 'positive', /does not end the digits with _period_89 or _comma_89/],
    ['csym_1_comma_234_comma_567_space_89', 'positive', /does not end the digits/],
    ['csym_1_comma_234_comma_567_comma_89', 'positive', /uses comma both between groups and before the decimals/],
    ['usd_1_comma_234_comma_567_period_89_code', 'positive', /tokens this service does not know: "usd", "code"/],
    ['1_comma_234_comma_567_period_89', 'positive', /csym .* once/],
    ['csym_1_comma_234_comma_567_period_89_csym', 'positive', /csym .* once/],
    ['minus_csym_1_comma_234_comma_567_period_89', 'positive', /positive format: it takes no minus/],
    ['csym_1_comma_234_comma_567_period_89', 'negative', /negative format: it shows the sign once/],
    ['minus_csym_1_comma_234_comma_567_period_89_minus', 'negative', /sign once/],
    ['opar_minus_csym_1_comma_234_comma_567_period_89_cpar', 'negative', /sign once/],
    ['csym_opar_1_comma_234_comma_567_period_89_cpar', 'negative', /open with opar and close with cpar/],
    ['', 'positive', /does not spell the digits/],
  ];
  for (const [format, sign, why] of bad) {
    const got = parseCurrencyFormat(format, sign);
    assert.ok(typeof got === 'string' && why.test(got), `${format}: ${JSON.stringify(got)}`);
  }
});

test('a Currency numerical tab\'s localePolicy: setTabValues\' currency, derived formats, the culture\'s own layout', () => {
  assert.deepEqual(localeOf(EXAMPLE), {
    cultureName: 'en-US', decimal: '.', group: ',',
    money: {
      currencyCode: 'usd', code: 'USD', symbol: '$', positive: ['symbol', 'amount'], negative: ['minus', 'symbol', 'amount'],
      positiveFormat: EXAMPLE.currencyPositiveFormat, negativeFormat: EXAMPLE.currencyNegativeFormat, long: true,
    },
  });
  // The formats' separators replace the culture's; the symbol is the currency's in that culture.
  const de = localeOf({ cultureName: 'en-US', currencyCode: 'EUR', currencyPositiveFormat: 'csym_1_period_234_period_567_comma_89', currencyNegativeFormat: 'opar_csym_1_period_234_period_567_comma_89_cpar' });
  assert.deepEqual([de.decimal, de.group, de.money?.symbol, de.money?.code, de.money?.long], [',', '.', '€', 'EUR', false]);
  // One format given: the other follows it, the sign added or taken away.
  assert.deepEqual(localeOf({ currencyCode: 'usd', currencyPositiveFormat: '1_comma_234_comma_567_period_89_csym' }).money?.negative, ['minus', 'amount', 'symbol']);
  assert.deepEqual(localeOf({ currencyCode: 'usd', currencyNegativeFormat: 'opar_csym_1_comma_234_comma_567_period_89_cpar' }).money?.positive, ['symbol', 'amount']);
  // No format: where the culture writes the symbol, with its separators.
  const culture = localeOf({ cultureName: 'de-DE', currencyCode: 'eur' });
  assert.deepEqual([culture.decimal, culture.group, culture.money?.positive, culture.money?.negative], [',', '.', ['amount', ' ', 'symbol'], ['minus', 'amount', ' ', 'symbol']]);
  assert.deepEqual(localeOf({ currencyCode: 'gbp' }).money?.positive, ['symbol', 'amount']);
  // Asking for nothing is fine anywhere: a blank code, useLongCurrencyFormat false.
  assert.deepEqual(localeOf({ cultureName: 'de-DE', currencyCode: '', useLongCurrencyFormat: 'false' }, {}), { cultureName: 'de-DE', decimal: ',', group: '.' });
  assert.deepEqual(localeOf({ useLongCurrencyFormat: false }, { validationType: 'Number' }), { cultureName: 'en-US', decimal: '.', group: ',' });
});

test('currency fields this service cannot honour are refused by name, never dropped', () => {
  const path = 'recipients\\.signers\\[0\\]\\.tabs\\.numericalTabs\\[0\\]\\.localePolicy';
  const cases: [unknown, Record<string, unknown>, RegExp][] = [
    [EXAMPLE, { validationType: 'Number' }, new RegExp(`${path} currencyCode, currencyPositiveFormat, currencyNegativeFormat, useLongCurrencyFormat: currency formats apply only to a numerical tab whose validationType is Currency`)],
    [{ useLongCurrencyFormat: 'true' }, {}, /useLongCurrencyFormat: currency formats apply only to a numerical tab whose validationType is Currency/],
    [{ ...EXAMPLE, currencyCode: undefined }, { validationType: 'Currency' }, new RegExp(`${path} asks for a currency format without currencyCode`)],
    [{ ...EXAMPLE, currencyCode: 'xyz' }, { validationType: 'Currency' }, new RegExp(`${path}\\.currencyCode is not an ISO 4217 currency code this service knows, got "xyz"`)],
    [{ ...EXAMPLE, currencyCode: 'dollars' }, { validationType: 'Currency' }, /currencyCode is not an ISO 4217 currency code this service knows, got "dollars"/],
    [{ ...EXAMPLE, currencyPositiveFormat: 'csym_1_apos_234_apos_567_period_89' }, { validationType: 'Currency' }, new RegExp(`${path}\\.currencyPositiveFormat "csym_1_apos_234_apos_567_period_89" does not spell the digits`)],
    [{ ...EXAMPLE, currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89_usd' }, { validationType: 'Currency' }, /currencyNegativeFormat "minus_csym_1_comma_234_comma_567_period_89_usd" has tokens this service does not know: "usd"/],
    [{ ...EXAMPLE, currencyNegativeFormat: 'minus_csym_1_period_234_period_567_comma_89' }, { validationType: 'Currency' }, /currencyPositiveFormat "csym_1_comma_234_comma_567_period_89" and currencyNegativeFormat "minus_csym_1_period_234_period_567_comma_89" disagree on the separators/],
    [{ ...EXAMPLE, useLongCurrencyFormat: 'yes' }, { validationType: 'Currency' }, /useLongCurrencyFormat must be true or false, got "yes"/],
    [{ ...EXAMPLE, dateFormat: 'MM/dd/yyyy', timeZone: 'UTC' }, { validationType: 'Currency' }, /supports only cultureName and, on a numerical tab whose validationType is Currency, currencyCode, currencyPositiveFormat, currencyNegativeFormat, useLongCurrencyFormat; not supported: dateFormat, timeZone/],
  ];
  for (const [policy, extra, why] of cases) assert.throws(() => localeOf(policy, extra), refused(why), JSON.stringify(policy));
  // numberTabs (ModelNumber) have no Currency at all.
  assert.throws(() => parse({ numberTabs: [{ ...at, localePolicy: { currencyCode: 'usd' } }] }), refused(/numberTabs\[0\]\.localePolicy currencyCode: currency formats apply only to a numerical tab/));
});
