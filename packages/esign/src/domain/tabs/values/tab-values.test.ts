import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsignError } from '../../../errors.ts';
import { WireReader } from '../../../wire/wire-reader.ts';
import { parseTabs } from '../parse-tabs.ts';
import { kindOf } from '../tab-registry.ts';
import type { Tab } from '../tab.ts';
import { applySignerValues } from './apply-signer-values.ts';
import { computeFormulaValues } from './compute-formula-values.ts';
import { assertTabsComplete, findTabProblems, shownTabs } from './find-tab-problems.ts';
import { initialTabValue } from './initial-tab-value.ts';
import { parseDateValue } from './parse-date-value.ts';
import { parseLocaleNumber } from './parse-locale-number.ts';

const at = { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' };
const parse = (tabs: unknown): Tab[] => parseTabs(new WireReader('tabs', tabs), { recipientId: '1' });
const one = (list: string, tab: Record<string, unknown>): Tab => parse({ [list]: [{ ...at, ...tab }] })[0]!;
const problem = (tab: Tab, value: string) => kindOf(tab.type).findValueProblem(tab, value);

test('numbers in the tab\'s culture, with min/max and currency\'s two decimals', () => {
  const us = { cultureName: 'en-US', decimal: '.', group: ',' };
  const de = { cultureName: 'de-DE', decimal: ',', group: '.' };
  assert.equal(parseLocaleNumber('1,234.5', us), 1234.5);
  assert.equal(parseLocaleNumber('-42', us), -42);
  assert.equal(parseLocaleNumber('.5', us), 0.5);
  assert.equal(parseLocaleNumber('1.234,5', de), 1234.5);
  for (const bad of ['1,23.4', '12a', '1.2.3', '', '-', '1,234.5', '1 234']) assert.equal(parseLocaleNumber(bad, de), undefined, bad);
  const price = one('numericalTabs', { minNumericalValue: '1', maxNumericalValue: '100', validationType: 'Currency' });
  assert.equal(problem(price, '99.99'), undefined);
  assert.match(problem(price, '100.5')!, /at most 100/);
  assert.match(problem(price, '0.5')!, /at least 1/);
  assert.match(problem(price, '9.999')!, /two decimals/);
  assert.match(problem(price, 'ten')!, /Enter a number, such as 1,234.5/);
  const euro = one('numberTabs', { localePolicy: { cultureName: 'de-DE' } });
  assert.equal(problem(euro, '1.234,5'), undefined);
  assert.match(problem(euro, '1,234.5')!, /such as 1\.234,5/);
});

test('dates, e-mail, zip and ssn have their formats; text its maxLength and pattern', () => {
  assert.deepEqual(parseDateValue('2/29/2028'), { year: 2028, month: 2, day: 29 });
  assert.equal(parseDateValue('2/29/2027'), undefined);
  assert.equal(parseDateValue('2026-13-01'), undefined);
  const date = one('dateTabs', {});
  assert.equal(problem(date, '11/21/2026'), undefined);
  assert.match(problem(date, 'tomorrow')!, /MM\/DD\/YYYY/);
  assert.equal(problem(one('emailTabs', {}), 'ada@example.com'), undefined);
  assert.ok(problem(one('emailTabs', {}), 'ada@example'));
  assert.equal(problem(one('zipTabs', { useDash4: 'true' }), '12345-6789'), undefined);
  assert.ok(problem(one('zipTabs', {}), '12345-6789'));
  assert.equal(problem(one('zipTabs', {}), '123456789'), undefined);
  assert.equal(problem(one('ssnTabs', {}), '123456789'), undefined);
  assert.ok(problem(one('ssnTabs', {}), '12-345-6789'));
  const code = one('textTabs', { maxLength: '6', validationPattern: '^[A-Z]+$', validationMessage: 'Capitals only' });
  assert.equal(problem(code, 'ABC'), undefined);
  assert.equal(problem(code, 'abc'), 'Capitals only');
  assert.equal(problem(code, 'ABCDEFG'), 'Enter at most 6 characters.');
});

test('lists, radios and checkboxes accept only their own values; read-only types take none', () => {
  const tabs = parse({
    listTabs: [{ ...at, listItems: [{ text: 'Red', value: 'red' }, { text: 'Blue' }] }],
    radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [{ value: 'basic' }, { value: 'pro' }] }],
    checkboxTabs: [at], noteTabs: [{ ...at, value: 'n' }], fullNameTabs: [at], signHereTabs: [at],
  });
  const [list, radio, checkbox, note, fullName, signHere] = tabs as [Tab, Tab, Tab, Tab, Tab, Tab];
  assert.equal(problem(list, 'Blue'), undefined, 'an item without a value is stored by its text');
  assert.ok(problem(list, 'green'));
  assert.equal(problem(radio, 'pro'), undefined);
  assert.match(problem(radio, 'gold')!, /Choose one of basic, pro/);
  assert.equal(problem(checkbox, 'TRUE'), undefined);
  assert.ok(problem(checkbox, 'yes'));
  for (const t of [note, fullName, signHere]) assert.ok(problem(t, 'x'), t.type);
  assert.deepEqual(tabs.map(initialTabValue), ['', '', 'false', 'n', '', '']);
});

test('a signer may change only unlocked tabs that take values (INVALID_TAB_OPERATION otherwise)', () => {
  const tabs = parse({
    textTabs: [{ ...at, tabLabel: 'Free' }, { ...at, tabLabel: 'Fixed', value: 'v1', locked: 'true' }],
    noteTabs: [{ ...at, value: 'note' }],
    radioGroupTabs: [{ groupName: 'Plan', documentId: '1', radios: [{ value: 'basic' }, { value: 'pro', locked: 'true' }] }],
  });
  const start = tabs.map(initialTabValue);
  assert.deepEqual(applySignerValues(tabs, start, new Map([[0, 'mine'], [1, 'v1']])), ['mine', 'v1', 'note', '']);
  const op = (pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === 'INVALID_TAB_OPERATION' && pattern.test(e.message);
  assert.throws(() => applySignerValues(tabs, start, new Map([[1, 'v2']])), op(/text tab "Fixed" is locked/));
  assert.throws(() => applySignerValues(tabs, start, new Map([[2, 'edited']])), op(/note tab takes no value from the signer/));
  assert.throws(() => applySignerValues(tabs, start, new Map([[3, 'pro']])), op(/radio "pro" of radioGroup tab "Plan" is locked/));
  assert.throws(() => applySignerValues(tabs, start, new Map([[9, 'x']])), op(/no tab 10/));
  // A locked radio the sender selected stays selected: choosing another radio would clear it.
  const chosen = parse({ radioGroupTabs: [{ groupName: 'Tier', documentId: '1', radios: [{ value: 'basic' }, { value: 'pro', locked: 'true', selected: 'true' }] }] });
  assert.throws(() => applySignerValues(chosen, chosen.map(initialTabValue), new Map([[0, 'basic']])), op(/radio "pro" of radioGroup tab "Tier" is locked/));
  assert.throws(() => applySignerValues(chosen, chosen.map(initialTabValue), new Map([[0, '']])), op(/radio "pro" of radioGroup tab "Tier" is locked/));
});

test('conditional tabs are shown, and so judged, only while their parent has the value; required blanks block Finish', () => {
  const tabs = parse({
    checkboxTabs: [{ ...at, tabLabel: 'Ship', required: 'false' }],
    textTabs: [
      { ...at, tabLabel: 'Address', conditionalParentLabel: 'Ship', conditionalParentValue: 'on' },
      { ...at, tabLabel: 'Floor', conditionalParentLabel: 'Address', conditionalParentValue: 'HQ' },
      { ...at, tabLabel: 'Name' },
    ],
    listTabs: [{ ...at, tabLabel: 'Colour', listItems: [{ text: 'Red' }] }],
  });
  assert.deepEqual(shownTabs(tabs, ['false', '', '', '', '']), [true, false, false, true, true]);
  assert.deepEqual(shownTabs(tabs, ['true', 'HQ', '', '', '']), [true, true, true, true, true]);
  assert.deepEqual(findTabProblems(tabs, ['false', '', '', '', '']), [
    { index: 3, tabLabel: 'Name', message: 'This field is required.' },
    { index: 4, tabLabel: 'Colour', message: 'Make a choice to continue.' },
  ]);
  assert.deepEqual(findTabProblems(tabs, ['true', 'HQ', '', 'Ada', 'Red']).map((p) => p.tabLabel), ['Floor']);
  assert.doesNotThrow(() => assertTabsComplete(tabs, ['true', 'Main St', '', 'Ada', 'Red']));
  assert.throws(() => assertTabsComplete(tabs, ['true', '', '', 'Ada', 'Crimson']), (e: unknown) => e instanceof EsignError && e.code === 'INVALID_TAB_VALUE'
    && /tab 2 "Address": This field is required\.; tab 5 "Colour": Choose one of the listed values\./.test(e.message));
  const terms = parse({ checkboxTabs: [{ ...at, tabLabel: 'Terms', required: 'true' }] });
  assert.deepEqual(findTabProblems(terms, ['false']).map((p) => p.message), ['Check this box to continue.']);
});

test('formula values follow the tabs they read, in each tab\'s culture, formulas over formulas', () => {
  const tabs = parse({
    numberTabs: [{ ...at, tabLabel: 'Qty' }],
    numericalTabs: [{ ...at, tabLabel: 'Price', localePolicy: { cultureName: 'de-DE' } }],
    checkboxTabs: [{ ...at, tabLabel: 'Gift' }],
    formulaTabs: [
      { ...at, tabLabel: 'Total', formula: '[Subtotal] + [Gift] * 5', roundDecimalPlaces: '2' },
      { ...at, tabLabel: 'Subtotal', formula: '[Qty] * [Price]' },
    ],
  });
  assert.deepEqual(computeFormulaValues(tabs, ['3', '19,5', 'true', '', '']), ['3', '19,5', 'true', '63.50', '58.5']);
  assert.deepEqual(computeFormulaValues(tabs, ['', '', 'false', '', '']), ['', '', 'false', '0.00', '0']);
});
