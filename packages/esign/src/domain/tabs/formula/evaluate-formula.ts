import type { FormulaNode } from './formula-ast.ts';

/**
 * The formula's value given the numeric value of each label it reads (`valueOf` answers
 * undefined for a blank tab, which counts as 0 as in DocuSign's calculated fields). Answers
 * undefined when the result is not a finite number (a division by zero), which the signing page
 * shows as blank; labels must have been checked beforehand (checkFormulas).
 */
export function evaluateFormula(node: FormulaNode, valueOf: (label: string) => number | undefined): number | undefined {
  const result = evaluate(node, valueOf);
  return Number.isFinite(result) ? result : undefined;
}

function evaluate(node: FormulaNode, valueOf: (label: string) => number | undefined): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'ref':
      return valueOf(node.label) ?? 0;
    case 'negate':
      return -evaluate(node.operand, valueOf);
    case 'binary': {
      const a = evaluate(node.left, valueOf);
      const b = evaluate(node.right, valueOf);
      switch (node.op) {
        case '+':
          return a + b;
        case '-':
          return a - b;
        case '*':
          return a * b;
        case '/':
          return a / b;
      }
    }
  }
}

/**
 * The value as the tab shows it: rounded to `roundDecimalPlaces` (FormulaTab's field) when
 * given, else to 10 places, which hides binary noise such as 0.1 + 0.2 = 0.30000000000000004.
 */
export function formatFormulaValue(value: number | undefined, roundDecimalPlaces?: number): string {
  if (value === undefined) return '';
  const places = roundDecimalPlaces ?? 10;
  const factor = 10 ** places;
  const rounded = Math.round(value * factor) / factor;
  const text = roundDecimalPlaces === undefined ? String(Number(rounded.toFixed(places))) : rounded.toFixed(places);
  return text === '-0' ? '0' : text.replace(/^-(0(\.0+)?)$/, '$1');
}
