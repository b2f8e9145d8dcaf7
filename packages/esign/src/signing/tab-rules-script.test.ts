import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runInThisContext } from 'node:vm';
import fc from 'fast-check';
import { WireReader } from '../wire/wire-reader.ts';
import { parseTabs } from '../domain/tabs/parse-tabs.ts';
import type { Tab } from '../domain/tabs/tab.ts';
import { computeFormulaValues } from '../domain/tabs/values/compute-formula-values.ts';
import { findTabProblems, shownTabs } from '../domain/tabs/values/find-tab-problems.ts';
import { keptTabValue } from '../domain/tabs/values/number-value.ts';
import { tabRules, type TabRule } from './tab-rule.ts';
import { TAB_RULES_SCRIPT } from './tab-rules-script.ts';
import { translator } from '../i18n/translator.ts';

// In English the page's messages are the server's own words (Finish answers them when the page is bypassed).
const EN = translator('en');

type Rules = {
  problem(rule: TabRule, value: string): string;
  kept(rule: TabRule, value: string): string;
  shown(rules: readonly TabRule[], values: readonly string[]): boolean[];
  formulas(rules: readonly TabRule[], values: readonly string[]): string[];
};
// The page's script text itself, run as the browser runs it: a classic script defining one global.
const rules = runInThisContext(`${TAB_RULES_SCRIPT}; SignetTabRules;`) as Rules;

const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };
const parse = (tabs: unknown): Tab[] => parseTabs(new WireReader('tabs', tabs), { recipientId: '1' });

// One tab of every type that takes a value, with the rules the page must mirror.
const TABS = parse({
  textTabs: [{ ...at, tabLabel: 'Code', maxLength: '4', validationPattern: '^[A-Z]{2}\\d{2}$', validationMessage: 'Two letters, two digits' }, { ...at, tabLabel: 'Free', required: 'false' }],
  companyTabs: [at], titleTabs: [{ ...at, maxLength: '5' }],
  numberTabs: [{ ...at, tabLabel: 'Qty', validationPattern: '^\\d+$' }],
  numericalTabs: [
    { ...at, tabLabel: 'Price', minNumericalValue: '1', maxNumericalValue: '1000', validationType: 'Currency', localePolicy: { cultureName: 'de-DE' } },
    { ...at, tabLabel: 'Salary', maxLength: '16', validationType: 'Currency', localePolicy: { cultureName: 'en-US', currencyCode: 'usd', currencyPositiveFormat: 'csym_1_comma_234_comma_567_period_89', currencyNegativeFormat: 'minus_csym_1_comma_234_comma_567_period_89', useLongCurrencyFormat: 'true' } },
    { ...at, tabLabel: 'Fee', minNumericalValue: '-100000', validationType: 'Currency', localePolicy: { currencyCode: 'eur', currencyNegativeFormat: 'opar_1_period_234_period_567_comma_89_csym_cpar' } },
    { ...at, tabLabel: 'Rent', validationType: 'Currency', localePolicy: { cultureName: 'de-DE', currencyCode: 'eur' } },
  ],
  dateTabs: [at], emailTabs: [at], zipTabs: [{ ...at, useDash4: 'true' }, { ...at, required: 'false' }], ssnTabs: [at],
  checkboxTabs: [{ ...at, tabLabel: 'Terms', required: 'true' }, { ...at, tabLabel: 'Extra' }],
  radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [{ value: 'basic' }, { value: 'pro' }] }],
  listTabs: [{ ...at, tabLabel: 'Colour', listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue' }] }],
  formulaTabs: [{ ...at, tabLabel: 'Total', formula: '[Qty] * [Price] + [Extra]', roundDecimalPlaces: '2' }, { ...at, tabLabel: 'Half', formula: '[Total] / 2 - -[Free]' }],
  noteTabs: [{ ...at, value: 'Read section 4' }],
});

const VALUES = [
  '', ' ', 'AB12', 'ab12', 'ABC12', 'x'.repeat(6), '12345', '12345-6789', '123456789', '1234', '123-45-6789', '123456789 ',
  '2026-11-21', '11/21/2026', '2026-02-30', '13/01/2026', 'ada@example.com', 'ada@example', 'a b@x.io', '3', '-2', '1.234,5', '1.234,567',
  '0,5', '1000,01', '1,234.5', '12a', 'true', 'false', 'TRUE', 'on', 'red', 'Blue', 'blue', 'basic', 'pro', 'gold',
  '$123,000.00 USD', '$123,000.00', '-$2,500.50 USD', '123000', '1234567890', '$1,23.00', '5000.123', '$ 7 usd', '€5', '(1.234,50€)', '-1.234,5 €',
  '1.234,50 €', '1.234,50\u00a0€', '(50.000,00€) EUR', '-5', '$-5',
];

test('the page judges every value-taking tab type as Finish does, with the same message', () => {
  const page = tabRules(TABS, EN);
  let compared = 0;
  TABS.forEach((tab, i) => {
    for (const value of VALUES) {
      const values = TABS.map((_, j) => (j === i ? value : ''));
      const server = findTabProblems([tab], [value])[0]?.message ?? '';
      assert.equal(rules.problem(page[i]!, values[i]!), server, `${tab.type} "${value}"`);
      compared++;
    }
  });
  assert.ok(compared > 500);
});

test('conditions settle to the same shown tabs, checkbox parents as on/off', () => {
  const tabs = parse({
    checkboxTabs: [{ ...at, tabLabel: 'Agree' }],
    textTabs: [{ ...at, tabLabel: 'Why', conditionalParentLabel: 'Agree', conditionalParentValue: 'on' }, { ...at, tabLabel: 'More', conditionalParentLabel: 'Why', conditionalParentValue: 'Yes' }],
    listTabs: [{ ...at, tabLabel: 'Kind', conditionalParentLabel: 'Agree', conditionalParentValue: 'off', listItems: [{ text: 'a' }] }],
  });
  const page = tabRules(tabs, EN);
  for (const values of [['true', 'Yes', '', ''], ['false', 'Yes', 'x', ''], ['true', 'yes', '', 'a'], ['', '', '', '']]) {
    assert.deepEqual(rules.shown(page, values), shownTabs(tabs, values), values.join('|'));
  }
});

test('formulas compute what the server computes, for any numbers typed (property)', () => {
  const page = tabRules(TABS, EN);
  const qty = TABS.findIndex((t) => t.tabLabel === 'Qty');
  const price = TABS.findIndex((t) => t.tabLabel === 'Price');
  const extra = TABS.findIndex((t) => t.tabLabel === 'Extra');
  const free = TABS.findIndex((t) => t.tabLabel === 'Free');
  const deNumber = fc.double({ min: -1e6, max: 1e6, noNaN: true }).map((n) => n.toFixed(2).replace('.', ','));
  fc.assert(fc.property(fc.integer({ min: -1000, max: 1000 }), deNumber, fc.boolean(), fc.oneof(fc.constant(''), fc.double({ min: -1e3, max: 1e3, noNaN: true }).map(String), fc.string()), (q, p, x, f) => {
    const values = TABS.map(() => '');
    values[qty] = String(q);
    values[price] = p;
    values[extra] = x ? 'true' : 'false';
    values[free] = f;
    assert.deepEqual(rules.formulas(page, values), computeFormulaValues(TABS, values));
  }), { numRuns: 300 });
});

test('a Currency tab with money: the page writes and reads amounts as the server does (property)', () => {
  const page = tabRules(TABS, EN);
  const money = TABS.flatMap((tab, i) => (tab.type === 'numerical' && tab.locale.money ? [i] : []));
  assert.equal(money.length, 3);
  const typed = fc.oneof(
    fc.integer({ min: -1e11, max: 1e11 }).map((c) => String(c / 100)),
    fc.integer({ min: -1e11, max: 1e11 }).map((c) => (c / 100).toLocaleString('en-US')),
    fc.integer({ min: -1e11, max: 1e11 }).map((c) => (c / 100).toLocaleString('de-DE', { style: 'currency', currency: 'EUR' })),
    fc.constantFrom(...VALUES),
    fc.string({ maxLength: 12 }),
  );
  fc.assert(fc.property(fc.constantFrom(...money), typed, (i, value) => {
    assert.equal(rules.kept(page[i]!, value), keptTabValue(TABS[i]!, value), `kept ${value}`);
    assert.equal(rules.problem(page[i]!, value), findTabProblems([TABS[i]!], [value])[0]?.message ?? '', `problem ${value}`);
  }), { numRuns: 600 });
  // What the page keeps is what the server keeps: $123,000.00 USD for 123000 typed.
  const salary = TABS.findIndex((t) => t.tabLabel === 'Salary');
  assert.equal(rules.kept(page[salary]!, '123000'), '$123,000.00 USD');
  assert.equal(rules.kept(page[salary]!, '-2500.5'), '-$2,500.50 USD');
  assert.equal(rules.problem(page[salary]!, 'lots'), 'Enter a number, such as $1,234.50 USD.');
});
