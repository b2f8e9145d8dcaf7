import { labelOf } from '../check-tab-relations.ts';
import { checkFormulas } from '../formula/check-formulas.ts';
import { evaluateFormula, formatFormulaValue } from '../formula/evaluate-formula.ts';
import type { Tab } from '../tab.ts';
import { DEFAULT_LOCALE } from '../parse-number-locale.ts';
import { parseLocaleNumber } from './parse-locale-number.ts';

/**
 * The values with every formula tab's value computed from the others, formulas that read
 * formulas after them. A label's number is the first non-blank value among the tabs it labels,
 * read in that tab's culture (en-US for text); a checkbox counts 1 when checked; what is not a
 * number counts as blank (0).
 */
export function computeFormulaValues(tabs: readonly Tab[], values: readonly string[]): string[] {
  const out = [...values];
  const formulas = tabs.flatMap((t, i) => (t.type === 'formula' && t.tabLabel !== undefined ? [{ tabLabel: t.tabLabel, formula: t.formula, index: i, round: t.roundDecimalPlaces }] : []));
  if (formulas.length === 0) return out;
  const known = new Set(tabs.map(labelOf).filter((l): l is string => l !== undefined));
  const numberOf = (label: string): number | undefined => {
    for (let i = 0; i < tabs.length; i++) {
      const tab = tabs[i]!;
      if (labelOf(tab) !== label || (out[i] ?? '') === '') continue;
      if (tab.type === 'checkbox') return out[i] === 'true' ? 1 : 0;
      return parseLocaleNumber(out[i]!, tab.type === 'number' || tab.type === 'numerical' ? tab.locale : DEFAULT_LOCALE);
    }
    return undefined;
  };
  for (const f of checkFormulas(formulas, known)) {
    const own = formulas.find((x) => x.tabLabel === f.tabLabel)!;
    out[own.index] = formatFormulaValue(evaluateFormula(f.formula, numberOf), own.round);
  }
  return out;
}
