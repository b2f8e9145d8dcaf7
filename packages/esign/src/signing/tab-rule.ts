import { labelOf } from '../domain/tabs/check-tab-relations.ts';
import { checkFormulas } from '../domain/tabs/formula/check-formulas.ts';
import type { FormulaNode } from '../domain/tabs/formula/formula-ast.ts';
import { kindOf } from '../domain/tabs/tab-registry.ts';
import type { Tab } from '../domain/tabs/tab.ts';

/**
 * What the signing page's script knows of one tab to judge and compute it as the server does
 * (signing/tab-rules-script.ts mirrors domain/tabs/values/find-tab-problems.ts and the formula
 * evaluator over these). Culture-dependent text is computed here, so the browser's own Intl
 * data cannot make its messages differ from the server's.
 */
export type TabRule = {
  readonly type: Tab['type'];
  readonly label?: string;
  readonly required: boolean;
  readonly takesValue: boolean;
  readonly locked: boolean;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly patternMessage?: string;
  readonly useDash4?: boolean;
  readonly decimal?: string;
  readonly group?: string;
  readonly numberMessage?: string;
  readonly min?: number;
  readonly max?: number;
  readonly currency?: boolean;
  /** The values a list or radio group accepts. */
  readonly choices?: readonly string[];
  readonly cond?: { readonly label: string; readonly value: string };
  readonly formula?: FormulaNode;
  readonly round?: number;
  /** A formula's place in evaluation order (each after those it reads). */
  readonly order?: number;
};

/** The rules of a recipient's tabs, in the order given. */
export function tabRules(tabs: readonly Tab[]): TabRule[] {
  const formulas = tabs.flatMap((t) => (t.type === 'formula' && t.tabLabel !== undefined ? [{ tabLabel: t.tabLabel, formula: t.formula }] : []));
  const known = new Set(tabs.map(labelOf).filter((l): l is string => l !== undefined));
  const order = new Map(checkFormulas(formulas, known).map((f, i) => [f.tabLabel, i]));
  return tabs.map((tab) => tabRule(tab, order));
}

function tabRule(tab: Tab, order: ReadonlyMap<string, number>): TabRule {
  const label = labelOf(tab);
  const base = {
    type: tab.type,
    ...(label !== undefined ? { label } : {}),
    required: tab.required,
    takesValue: kindOf(tab.type).takesValue,
    locked: tab.locked,
    ...(tab.conditional ? { cond: { label: tab.conditional.parentLabel, value: tab.conditional.parentValue } } : {}),
  };
  switch (tab.type) {
    case 'text': case 'company': case 'title': case 'date': case 'email': case 'zip': case 'ssn':
      return {
        ...base, maxLength: tab.maxLength,
        ...(tab.validation ? { pattern: tab.validation.pattern.source, ...(tab.validation.message !== undefined ? { patternMessage: tab.validation.message } : {}) } : {}),
        ...(tab.useDash4 !== undefined ? { useDash4: tab.useDash4 } : {}),
      };
    case 'number': case 'numerical':
      return {
        ...base, maxLength: tab.maxLength, decimal: tab.locale.decimal, group: tab.locale.group,
        numberMessage: `Enter a number, such as ${(1234.5).toLocaleString(tab.locale.cultureName, { minimumFractionDigits: 1 })}.`,
        ...(tab.min !== undefined ? { min: tab.min } : {}),
        ...(tab.max !== undefined ? { max: tab.max } : {}),
        ...(tab.validationType === 'currency' ? { currency: true } : {}),
        ...(tab.validation ? { pattern: tab.validation.pattern.source, ...(tab.validation.message !== undefined ? { patternMessage: tab.validation.message } : {}) } : {}),
      };
    case 'list':
      return { ...base, choices: tab.items.map((i) => i.value) };
    case 'radioGroup':
      return { ...base, choices: tab.radios.map((r) => r.value) };
    case 'formula':
      return { ...base, formula: tab.formula, ...(tab.roundDecimalPlaces !== undefined ? { round: tab.roundDecimalPlaces } : {}), ...(tab.tabLabel !== undefined && order.has(tab.tabLabel) ? { order: order.get(tab.tabLabel)! } : {}) };
    default:
      return base;
  }
}
