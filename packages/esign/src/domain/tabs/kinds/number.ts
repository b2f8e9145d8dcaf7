import { EsignError } from '../../../errors.ts';
import { assertPrefill, findEntryProblem, readEntry } from '../read-entry.ts';
import { COMMON_FIELDS, ENTRY_FIELDS, SHARING_FIELDS, VALIDATION_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable, type TabContext } from '../tab-kind.ts';
import { parseNumberLocale } from '../parse-number-locale.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { NumberTab } from '../tab.ts';
import { numberExample } from '../values/format-money.ts';
import { keptNumberValue } from '../values/number-value.ts';
import { readLocaleNumber } from '../values/parse-locale-number.ts';
import type { WireField } from '../wire-field.ts';

/** Why a typed number does not suit the tab: its shape in the tab's culture (or money), its range, currency's two decimals. */
export function findNumberProblem(tab: NumberTab, value: string): string | undefined {
  // A tab with money keeps the amount as it writes it: that text is what maxLength bounds.
  if (keptNumberValue(tab, value).length > tab.maxLength) return `Enter at most ${tab.maxLength} characters.`;
  const read = readLocaleNumber(value, tab.locale);
  if (read === undefined) return `Enter a number, such as ${numberExample(tab.locale)}.`;
  if (tab.min !== undefined && read.value < tab.min) return `Enter a number of at least ${tab.min}.`;
  if (tab.max !== undefined && read.value > tab.max) return `Enter a number of at most ${tab.max}.`;
  if (tab.validationType === 'currency' && read.decimals > 2) return 'Enter an amount with at most two decimals.';
  return tab.validation ? findEntryProblem(tab, value) : undefined;
}

function parseNumberTab(type: NumberTab['type']) {
  return (tab: WireField, context: TabContext): NumberTab => {
    const numerical = type === 'numerical';
    const entry = readEntry(tab, !numerical);
    const validationType = numerical ? tab.field('validationType').oneOf(['number', 'currency'] as const, 'number') : undefined;
    const locale = parseNumberLocale(tab, validationType === 'currency');
    const min = numerical ? tab.field('minNumericalValue').optionalNumber() : undefined;
    const max = numerical ? tab.field('maxNumericalValue').optionalNumber() : undefined;
    if (min !== undefined && max !== undefined && min > max) throw new EsignError('INVALID_REQUEST_BODY', `${tab.path}: minNumericalValue ${min} is above maxNumericalValue ${max}.`);
    // numericalValue is the same value as a plain number; value wins when both are given.
    const numericalValue = numerical ? tab.field('numericalValue').optionalNumber() : undefined;
    const value = entry.value !== '' ? entry.value : numericalValue !== undefined ? String(numericalValue).replace('.', locale.decimal) : '';
    const parsed: NumberTab = {
      ...parseTabBase(tab, type, { requiredFrom: 'required', lockable: true, ...context }),
      type,
      place: parseTabPlace(tab),
      font: parseTabFont(tab),
      ...entry,
      value,
      locale,
      ...(min !== undefined ? { min } : {}),
      ...(max !== undefined ? { max } : {}),
      ...(validationType !== undefined ? { validationType } : {}),
    };
    assertPrefill(tab, value, findNumberProblem(parsed, value));
    return { ...parsed, value: keptNumberValue(parsed, value) };
  };
}

/** Number (numberTabs, SDK ModelNumber): a number in the tab's culture, with the sender's optional pattern. */
export const numberKind = defineKind<NumberTab>({
  type: 'number', wireKey: 'numberTabs', model: 'ModelNumber', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...ENTRY_FIELDS, ...SHARING_FIELDS, ...VALIDATION_FIELDS, 'formula', 'isPaymentAmount']),
  parse: parseNumberTab('number'),
  findValueProblem: findNumberProblem,
});

/** Numerical: DocuSign's newer number tab, with minNumericalValue/maxNumericalValue and Number or Currency. */
export const numericalKind = defineKind<NumberTab>({
  type: 'numerical', wireKey: 'numericalTabs', model: 'Numerical', takesValue: true,
  fields: fieldTable([...COMMON_FIELDS, ...ENTRY_FIELDS, ...SHARING_FIELDS, 'maxNumericalValue', 'minNumericalValue', 'numericalValue', 'originalNumericalValue', 'validationType']),
  parse: parseNumberTab('numerical'),
  findValueProblem: findNumberProblem,
});
