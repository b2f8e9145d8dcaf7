import { EsignError } from '../../../errors.ts';
import { formulaLabels, type FormulaNode } from './formula-ast.ts';

/** A formula tab as the check sees it: its own label and its parsed expression. */
export type FormulaDefinition = { readonly tabLabel: string; readonly formula: FormulaNode };

/**
 * Checks a recipient's (or envelope's) formulas together and answers the order to evaluate them
 * in, every formula after those it reads. Refuses (INVALID_FORMULA) a formula reading a label no
 * tab has, and formulas that read each other in a cycle, naming the cycle.
 */
export function checkFormulas(formulas: readonly FormulaDefinition[], knownLabels: ReadonlySet<string>): FormulaDefinition[] {
  const byLabel = new Map<string, FormulaDefinition>();
  for (const f of formulas) {
    if (byLabel.has(f.tabLabel)) throw new EsignError('INVALID_FORMULA', `two formula tabs are labelled "${f.tabLabel}"; a formula's label must be unique.`);
    byLabel.set(f.tabLabel, f);
  }
  for (const f of formulas) {
    const unknown = formulaLabels(f.formula).filter((l) => !knownLabels.has(l) && !byLabel.has(l));
    if (unknown.length > 0) throw new EsignError('INVALID_FORMULA', `the formula of "${f.tabLabel}" reads ${unknown.map((l) => `[${l}]`).join(', ')}, which no tab is labelled.`);
  }
  // Depth-first topological order; the grey path is the cycle when one is met.
  const order: FormulaDefinition[] = [];
  const state = new Map<string, 'grey' | 'black'>();
  const path: string[] = [];
  const visit = (f: FormulaDefinition): void => {
    const s = state.get(f.tabLabel);
    if (s === 'black') return;
    if (s === 'grey') {
      const cycle = [...path.slice(path.indexOf(f.tabLabel)), f.tabLabel];
      throw new EsignError('INVALID_FORMULA', `formulas read each other in a cycle: ${cycle.map((l) => `[${l}]`).join(' → ')}.`);
    }
    state.set(f.tabLabel, 'grey');
    path.push(f.tabLabel);
    for (const label of formulaLabels(f.formula)) {
      const dep = byLabel.get(label);
      if (dep) visit(dep);
    }
    path.pop();
    state.set(f.tabLabel, 'black');
    order.push(f);
  };
  for (const f of formulas) visit(f);
  return order;
}
