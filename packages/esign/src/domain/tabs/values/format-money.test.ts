import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { WireReader } from '../../../wire/wire-reader.ts';
import { parseTabs } from '../parse-tabs.ts';
import { kindOf } from '../tab-registry.ts';
import type { NumberTab } from '../tab.ts';
import { computeFormulaValues } from './compute-formula-values.ts';
import { formatMoney } from './format-money.ts';
import { keptNumberValue, numericalValueOf } from './number-value.ts';
import { readLocaleNumber } from './parse-locale-number.ts';

const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };
const money = (localePolicy: Record<string, unknown>, extra: Record<string, unknown> = {}): NumberTab => {
  const tab = parseTabs(new WireReader('tabs', { numericalTabs: [{ ...at, tabLabel: 'Amount', validationType: 'Currency', localePolicy, ...extra }] }), { recipientId: '1' })[0]!;
  return tab.type === 'numerical' ? tab : assert.fail('a numerical tab');
};
const format = (tab: NumberTab, n: number) => formatMoney(n, tab.locale, tab.locale.money!);

const US = money({ cultureName: 'en-US', currencyCode: 'usd', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89', useLongCurrencyFormat: 'true' });
const PARENS = money({ currencyCode: 'usd', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', currencyNegativeFormat: 'opar_csym_1_comma_234_comma_567_period_89_cpar' });
const EURO = money({ cultureName: 'de', currencyCode: 'eur', currencyPositiveFormat: 'csym_1_period_234_period_567_comma_89', currencyNegativeFormat: 'opar_csym_1_period_234_period_567_comma_89_cpar', useLongCurrencyFormat: 'true' });
const SPACED = money({ cultureName: 'fr-FR', currencyCode: 'eur', currencyPositiveFormat: '1_space_234_space_567_comma_89_csym', currencyNegativeFormat: '1_space_234_space_567_comma_89_csym_minus' });
const CULTURE = money({ cultureName: 'de-DE', currencyCode: 'EUR' });
const YEN = money({ cultureName: 'ja-JP', currencyCode: 'jpy', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89' });

test('amounts written in each format: two decimals, grouped, symbol, sign, code', () => {
  const table: [NumberTab, number, string][] = [
    [US, 123000, '$123,000.00 USD'],
    [US, -2500.5, '-$2,500.50 USD'],
    [US, 1234567.89, '$1,234,567.89 USD'],
    [US, 0.5, '$0.50 USD'],
    [US, 0, '$0.00 USD'],
    [US, -0.001, '$0.00 USD'],
    [US, 999999999.99, '$999,999,999.99 USD'],
    [US, 1e21, '$1,000,000,000,000,000,000,000.00 USD'],
    [PARENS, 50000, '$50,000.00'],
    [PARENS, -50000, '($50,000.00)'],
    [EURO, 50000, '€50.000,00 EUR'],
    [EURO, -50000, '(€50.000,00) EUR'],
    [SPACED, 1234567.8, '1 234 567,80€'],
    [SPACED, -12, '12,00€-'],
    [CULTURE, 1234.5, '1.234,50 €'],
    [CULTURE, -1234.5, '-1.234,50 €'],
    [YEN, 123000, '￥123,000.00'],
  ];
  for (const [tab, n, text] of table) assert.equal(format(tab, n), text, `${n} in ${JSON.stringify(tab.locale.money?.positiveFormat ?? tab.locale.cultureName)}`);
});

test('what a signer may type into a money tab, and the amount it keeps', () => {
  const table: [NumberTab, string, number | undefined, string][] = [
    // typed, the number read (undefined: not an amount), the value kept
    [US, '123000', 123000, '$123,000.00 USD'],
    [US, '123,000', 123000, '$123,000.00 USD'],
    [US, ' 5000.5 ', 5000.5, '$5,000.50 USD'],
    [US, '-2500.5', -2500.5, '-$2,500.50 USD'],
    [US, '$123,000.00 USD', 123000, '$123,000.00 USD'],
    [US, '$123,000.00', 123000, '$123,000.00 USD'],
    [US, '$ 7 usd', 7, '$7.00 USD'],
    [US, '-$2,500.50 USD', -2500.5, '-$2,500.50 USD'],
    [US, '$1,23.00', undefined, '$1,23.00'],
    [US, '€5', undefined, '€5'],
    [US, '5 EUR', undefined, '5 EUR'],
    [US, '($5.00)', undefined, '($5.00)'],
    [US, '$', undefined, '$'],
    [US, '1.005', 1.005, '1.005'], // three decimals: refused by the tab, kept as typed
    [PARENS, '($50,000.00)', -50000, '($50,000.00)'],
    [PARENS, '-$50,000.00', -50000, '($50,000.00)'],
    [PARENS, '-50000', -50000, '($50,000.00)'],
    [EURO, '50.000,5', 50000.5, '€50.000,50 EUR'],
    [EURO, '(€50.000,00) EUR', -50000, '(€50.000,00) EUR'],
    [EURO, '50,000.5', undefined, '50,000.5'],
    [SPACED, '1 234 567,8 €', 1234567.8, '1 234 567,80€'],
    [SPACED, '1\u202f234,00€-', -1234, '1 234,00€-'],
    [CULTURE, '1.234,5\u00a0€', 1234.5, '1.234,50 €'],
  ];
  for (const [tab, typed, n, kept] of table) {
    assert.equal(readLocaleNumber(typed, tab.locale)?.value, n, `read ${typed}`);
    assert.equal(keptNumberValue(tab, typed), kept, `kept ${typed}`);
  }
  // numericalValue is the plain number, whatever the value's layout.
  assert.equal(numericalValueOf(US, '$123,000.00 USD'), '123000');
  assert.equal(numericalValueOf(EURO, '(€50.000,50) EUR'), '-50000.5');
  assert.equal(numericalValueOf(US, ''), undefined);
});

test('every amount written reads back as itself (property)', () => {
  const cents = fc.integer({ min: -99_999_999_999, max: 99_999_999_999 }).map((c) => c / 100);
  for (const tab of [US, PARENS, EURO, SPACED, CULTURE, YEN]) {
    fc.assert(fc.property(cents, (n) => {
      const text = format(tab, n);
      assert.equal(readLocaleNumber(text, tab.locale)?.value, n === 0 ? 0 : n, text);
      assert.equal(keptNumberValue(tab, text), text);
    }), { numRuns: 200 });
  }
});

test('the tab\'s rules judge the amount, not its decoration; prefills and formulas read it', () => {
  const capped = money({ currencyCode: 'usd', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', useLongCurrencyFormat: 'true' }, { minNumericalValue: '0', maxNumericalValue: '1000000', maxLength: '20', numericalValue: '123000' });
  assert.equal(capped.value, '$123,000.00 USD', 'numericalValue prefills the amount as written');
  const problem = (v: string) => kindOf('numerical').findValueProblem(capped, v);
  assert.equal(problem('$5,000.00 USD'), undefined);
  assert.equal(problem('5000'), undefined);
  assert.equal(problem('-$5.00'), 'Enter a number of at least 0.');
  assert.equal(problem('$1,000,000.01'), 'Enter a number of at most 1000000.');
  assert.equal(problem('5000.123'), 'Enter an amount with at most two decimals.');
  assert.equal(problem('five'), 'Enter a number, such as $1,234.50 USD.');
  // maxLength bounds the amount as kept: 999999 is written $999,999.00 USD (15 characters).
  const short = money({ currencyCode: 'usd', useLongCurrencyFormat: 'true' }, { maxLength: '14' });
  assert.equal(kindOf('numerical').findValueProblem(short, '99999'), undefined);
  assert.equal(kindOf('numerical').findValueProblem(short, '999999'), 'Enter at most 14 characters.');
  // A formula reads the amount.
  const tabs = parseTabs(new WireReader('tabs', {
    numericalTabs: [{ ...at, tabLabel: 'Salary', validationType: 'Currency', localePolicy: { currencyCode: 'usd', currencyNegativeFormat: 'opar_csym_1_comma_234_comma_567_period_89_cpar' } }],
    formulaTabs: [{ ...at, tabLabel: 'Monthly', formula: '[Salary] / 12', roundDecimalPlaces: '2' }],
  }), { recipientId: '1' });
  assert.deepEqual(computeFormulaValues(tabs, ['($120,000.00)', '']), ['($120,000.00)', '-10000.00']);
});
