import { COMMON_FIELDS, ENTRY_FIELDS, SHARING_FIELDS, VALIDATION_FIELDS } from '../tab-field-rules.ts';
import { defineKind, fieldTable } from '../tab-kind.ts';
import { parseFormula } from '../formula/parse-formula.ts';
import { parseTabBase } from '../parse-tab-base.ts';
import { parseTabFont } from '../parse-tab-font.ts';
import { parseTabPlace } from '../parse-tab-place.ts';
import type { FormulaTab } from '../tab.ts';

/**
 * FormulaTab: a value computed from other tabs ([Qty] * [Price]), shown read-only. Its value,
 * pattern and length fields describe a computed value, so the signer never types one; the
 * service computes it (formula/evaluate-formula.ts).
 */
export const formulaKind = defineKind<FormulaTab>({
  type: 'formula', wireKey: 'formulaTabs', model: 'FormulaTab', takesValue: false,
  fields: fieldTable([...COMMON_FIELDS, ...ENTRY_FIELDS, ...SHARING_FIELDS, ...VALIDATION_FIELDS, 'formula', 'hidden', 'isPaymentAmount', 'paymentDetails', 'roundDecimalPlaces'], {
    formula: { rule: 'honoured' },
    value: { rule: 'output' },
    maxLength: { rule: 'output' },
    locked: { rule: 'output' },
    required: { rule: 'output' },
    localePolicy: { rule: 'refused', why: 'formula values are written in en-US form' },
    validationPattern: { rule: 'refused', why: 'a computed value is not validated' },
    validationMessage: { rule: 'refused', why: 'a computed value is not validated' },
  }),
  parse: (tab, context) => {
    const formulaText = tab.field('formula').string(2000);
    const roundDecimalPlaces = tab.field('roundDecimalPlaces').optionalInteger(0, 10);
    return {
      ...parseTabBase(tab, 'formula', { requiredFrom: 'never', lockable: false, ...context }),
      locked: true,
      type: 'formula',
      place: parseTabPlace(tab),
      font: parseTabFont(tab),
      formula: parseFormula(formulaText, `${tab.path}.formula`),
      formulaText,
      ...(roundDecimalPlaces !== undefined ? { roundDecimalPlaces } : {}),
      hidden: tab.field('hidden').boolean(false),
    };
  },
  findValueProblem: () => 'A formula tab is computed from other tabs and cannot be typed in.',
});
