/**
 * A formula tab's expression (DocuSign's `formula`, e.g. `[Qty] * [Price]`): arithmetic over
 * numbers and other tabs' values named by their tabLabel in square brackets.
 */
export type FormulaNode =
  | { readonly kind: 'number'; readonly value: number }
  | { readonly kind: 'ref'; readonly label: string }
  | { readonly kind: 'negate'; readonly operand: FormulaNode }
  | { readonly kind: 'binary'; readonly op: '+' | '-' | '*' | '/'; readonly left: FormulaNode; readonly right: FormulaNode };

/** Every tabLabel the expression reads, once each, in first-use order. */
export function formulaLabels(node: FormulaNode): string[] {
  const seen = new Set<string>();
  const walk = (n: FormulaNode): void => {
    if (n.kind === 'ref') seen.add(n.label);
    else if (n.kind === 'negate') walk(n.operand);
    else if (n.kind === 'binary') {
      walk(n.left);
      walk(n.right);
    }
  };
  walk(node);
  return [...seen];
}
