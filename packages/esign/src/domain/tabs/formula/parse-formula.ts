import { EsignError } from '../../../errors.ts';
import type { FormulaNode } from './formula-ast.ts';

// Bounds of our own: a formula is a short expression a sender writes; the depth bound keeps the
// recursive parser and evaluator far from the stack's limit whatever the input.
export const MAX_FORMULA_LENGTH = 2000;
const MAX_DEPTH = 64;

type Token = { kind: 'number'; value: number; at: number } | { kind: 'ref'; label: string; at: number } | { kind: 'op'; op: string; at: number };

const NUMBER = /^(\d+(\.\d*)?|\.\d+)/;

function tokenize(text: string, fail: (why: string) => never): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      i++;
    } else if (c === '[') {
      const end = text.indexOf(']', i + 1);
      if (end < 0) fail(`the "[" at position ${i + 1} is not closed.`);
      const label = text.slice(i + 1, end).trim();
      if (label === '') fail(`the "[]" at position ${i + 1} names no tab.`);
      tokens.push({ kind: 'ref', label, at: i });
      i = end + 1;
    } else if ('+-*/()'.includes(c)) {
      tokens.push({ kind: 'op', op: c, at: i });
      i++;
    } else {
      const m = NUMBER.exec(text.slice(i));
      // DocuSign formulas also know functions (Round, If, ...) and comparisons; only arithmetic is implemented.
      if (!m) fail(`"${/^[A-Za-z_]\w*/.exec(text.slice(i))?.[0] ?? c}" at position ${i + 1} is not supported; use numbers, [TabLabel], + - * / and parentheses.`);
      tokens.push({ kind: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
    }
  }
  return tokens;
}

/**
 * Parses a formula into its tree, or throws INVALID_FORMULA saying what and where. Grammar:
 * expr = term (("+" | "-") term)*; term = unary (("*" | "/") unary)*;
 * unary = "-" unary | "+" unary | number | "[" label "]" | "(" expr ")".
 */
export function parseFormula(text: string, what = 'formula'): FormulaNode {
  const fail = (why: string): never => {
    throw new EsignError('INVALID_FORMULA', `${what}: ${why}`);
  };
  if (text.length > MAX_FORMULA_LENGTH) fail(`it is longer than ${MAX_FORMULA_LENGTH} characters.`);
  const tokens = tokenize(text, fail);
  if (tokens.length === 0) fail('it is empty.');
  let pos = 0;
  const peekOp = (): string | undefined => {
    const t = tokens[pos];
    return t?.kind === 'op' ? t.op : undefined;
  };
  const describe = (t: Token | undefined): string => (t === undefined ? 'the end' : `"${t.kind === 'op' ? t.op : t.kind === 'ref' ? `[${t.label}]` : String(t.value)}" at position ${t.at + 1}`);

  const expr = (depth: number): FormulaNode => {
    let left = term(depth);
    for (let op = peekOp(); op === '+' || op === '-'; op = peekOp()) {
      pos++;
      left = { kind: 'binary', op, left, right: term(depth) };
    }
    return left;
  };
  const term = (depth: number): FormulaNode => {
    let left = unary(depth);
    for (let op = peekOp(); op === '*' || op === '/'; op = peekOp()) {
      pos++;
      left = { kind: 'binary', op, left, right: unary(depth) };
    }
    return left;
  };
  const unary = (depth: number): FormulaNode => {
    if (depth > MAX_DEPTH) fail(`it nests deeper than ${MAX_DEPTH} levels.`);
    const t = tokens[pos];
    if (t?.kind === 'op' && (t.op === '-' || t.op === '+')) {
      pos++;
      const operand = unary(depth + 1);
      return t.op === '-' ? { kind: 'negate', operand } : operand;
    }
    if (t?.kind === 'number') {
      pos++;
      return { kind: 'number', value: t.value };
    }
    if (t?.kind === 'ref') {
      pos++;
      return { kind: 'ref', label: t.label };
    }
    if (t?.kind === 'op' && t.op === '(') {
      pos++;
      const inner = expr(depth + 1);
      if (peekOp() !== ')') fail(`expected ")" but found ${describe(tokens[pos])}.`);
      pos++;
      return inner;
    }
    return fail(`expected a number, [TabLabel] or "(" but found ${describe(t)}.`);
  };

  const tree = expr(0);
  if (pos < tokens.length) fail(`unexpected ${describe(tokens[pos])}.`);
  return tree;
}
