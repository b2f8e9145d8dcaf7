import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { EsignError } from '../../../errors.ts';
import { checkFormulas } from './check-formulas.ts';
import { evaluateFormula, formatFormulaValue } from './evaluate-formula.ts';
import { formulaLabels, type FormulaNode } from './formula-ast.ts';
import { parseFormula } from './parse-formula.ts';

const refusal = (pattern: RegExp) => (e: unknown) => e instanceof EsignError && e.code === 'INVALID_FORMULA' && pattern.test(e.message);

test('[Qty] * [Price] and friends: precedence, parentheses, unary minus, blanks count as 0', () => {
  const values: Record<string, number | undefined> = { Qty: 3, Price: 19.5, Discount: 5, Blank: undefined };
  const run = (f: string) => evaluateFormula(parseFormula(f), (l) => values[l]);
  assert.equal(run('[Qty] * [Price]'), 58.5);
  assert.equal(run('[Qty] * [Price] - [Discount]'), 53.5);
  assert.equal(run('[Qty] * ([Price] - [Discount])'), 43.5);
  assert.equal(run('-[Qty] + +2'), -1);
  assert.equal(run('[ Qty ]*2/4'), 1.5);
  assert.equal(run('[Blank] + 1'), 1);
  assert.equal(run('[Qty] / ([Discount] - 5)'), undefined, 'a division by zero is blank, not Infinity');
  assert.deepEqual(formulaLabels(parseFormula('[A] + [B] * [A]')), ['A', 'B']);
});

test('the value is shown rounded: roundDecimalPlaces, else without binary noise', () => {
  assert.equal(formatFormulaValue(0.1 + 0.2), '0.3');
  assert.equal(formatFormulaValue(58.5, 2), '58.50');
  assert.equal(formatFormulaValue(2 / 3, 0), '1');
  assert.equal(formatFormulaValue(-0.001, 2), '0.00');
  assert.equal(formatFormulaValue(undefined), '');
});

test('what is not arithmetic is refused with where it went wrong', () => {
  assert.throws(() => parseFormula('[Qty] *'), refusal(/expected a number, \[TabLabel\] or "\(" but found the end/));
  assert.throws(() => parseFormula('([Qty] * 2'), refusal(/expected "\)"/));
  assert.throws(() => parseFormula('[Qty] 2'), refusal(/unexpected "2" at position 7/));
  assert.throws(() => parseFormula('Round([Qty], 2)'), refusal(/"Round" at position 1 is not supported/));
  assert.throws(() => parseFormula('[Qty] % 2'), refusal(/"%" at position 7 is not supported/));
  assert.throws(() => parseFormula('[Qty'), refusal(/not closed/));
  assert.throws(() => parseFormula('[] + 1'), refusal(/names no tab/));
  assert.throws(() => parseFormula('   '), refusal(/empty/));
  assert.throws(() => parseFormula('('.repeat(100) + '1' + ')'.repeat(100)), refusal(/deeper than 64/));
  assert.throws(() => parseFormula('1+'.repeat(1001) + '1'), refusal(/longer than 2000/));
});

test('unknown labels and cycles are refused, naming them; the order puts readers last', () => {
  const f = (tabLabel: string, text: string) => ({ tabLabel, formula: parseFormula(text) });
  const known = new Set(['Qty', 'Price']);
  const order = checkFormulas([f('Total', '[Subtotal] * 1.2'), f('Subtotal', '[Qty] * [Price]')], known);
  assert.deepEqual(order.map((x) => x.tabLabel), ['Subtotal', 'Total']);
  assert.throws(() => checkFormulas([f('Total', '[Qty] * [Cost] + [Tax]')], known), refusal(/reads \[Cost\], \[Tax\], which no tab is labelled/));
  assert.throws(() => checkFormulas([f('A', '[B] + 1'), f('B', '[C] + 1'), f('C', '[A] * [Qty]')], known), refusal(/cycle: \[A\] → \[B\] → \[C\] → \[A\]/));
  assert.throws(() => checkFormulas([f('Self', '[Self] + 1')], known), refusal(/cycle: \[Self\] → \[Self\]/));
  assert.throws(() => checkFormulas([f('T', '1'), f('T', '2')], known), refusal(/two formula tabs are labelled "T"/));
});

// --- properties -------------------------------------------------------------------------

const LABELS = ['Qty', 'Price', 'Tax rate', 'a_b', 'Émile'];

/** Random expressions over small numbers and the labels above. */
const expression: fc.Arbitrary<FormulaNode> = fc.letrec<{ node: FormulaNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.integer({ min: 0, max: 1000 }).map((value): FormulaNode => ({ kind: 'number', value })),
    fc.constantFrom(...LABELS).map((label): FormulaNode => ({ kind: 'ref', label })),
    tie('node').map((operand): FormulaNode => ({ kind: 'negate', operand })),
    fc.tuple(fc.constantFrom('+' as const, '-' as const, '*' as const, '/' as const), tie('node'), tie('node')).map(([op, left, right]): FormulaNode => ({ kind: 'binary', op, left, right })),
  ),
})).node;

/** Writes a tree back as text, fully parenthesised, with arbitrary spacing. */
function print(n: FormulaNode, space: string): string {
  switch (n.kind) {
    case 'number':
      return String(n.value);
    case 'ref':
      return `[${n.label}]`;
    case 'negate':
      return `-(${print(n.operand, space)})`;
    case 'binary':
      return `(${print(n.left, space)}${space}${n.op}${space}${print(n.right, space)})`;
  }
}

/** The meaning of a tree, written independently of the evaluator. */
function meaning(n: FormulaNode, env: Record<string, number>): number {
  if (n.kind === 'number') return n.value;
  if (n.kind === 'ref') return env[n.label] ?? 0;
  if (n.kind === 'negate') return -meaning(n.operand, env);
  const [a, b] = [meaning(n.left, env), meaning(n.right, env)];
  return n.op === '+' ? a + b : n.op === '-' ? a - b : n.op === '*' ? a * b : a / b;
}

const environment = fc.record(Object.fromEntries(LABELS.map((l) => [l, fc.integer({ min: -50, max: 50 })])));

test('property: printing then parsing any expression gives the same value as its meaning', () => {
  fc.assert(fc.property(expression, environment, fc.constantFrom('', ' ', '  \t'), (tree, env, space) => {
    const parsed = parseFormula(print(tree, space));
    const expected = meaning(tree, env);
    const got = evaluateFormula(parsed, (l) => env[l]);
    if (Number.isFinite(expected)) assert.equal(got, expected);
    else assert.equal(got, undefined);
    assert.deepEqual(formulaLabels(parsed).sort(), formulaLabels(tree).sort());
  }), { numRuns: 400 });
});

/** Writes a tree back with only the parentheses precedence and left-to-right order need. */
function printMinimal(n: FormulaNode): string {
  const rank = (m: FormulaNode) => (m.kind === 'binary' ? (m.op === '+' || m.op === '-' ? 1 : 2) : 3);
  const wrap = (m: FormulaNode, open: boolean) => (open ? `(${printMinimal(m)})` : printMinimal(m));
  switch (n.kind) {
    case 'number':
      return String(n.value);
    case 'ref':
      return `[${n.label}]`;
    case 'negate':
      return `-${wrap(n.operand, n.operand.kind === 'binary')}`;
    case 'binary':
      // Left operands of the same rank need none (a - b - c is (a - b) - c); right ones do (a - (b - c)).
      return `${wrap(n.left, rank(n.left) < rank(n))} ${n.op} ${wrap(n.right, rank(n.right) <= rank(n))}`;
  }
}

test('property: with only the parentheses it needs, any expression parses back to the same tree', () => {
  // This is what fixes -, / and unary minus: a - (b - c), a / b / c and -a * b each mean one tree.
  fc.assert(fc.property(expression, (tree) => {
    assert.deepEqual(parseFormula(printMinimal(tree)), tree, printMinimal(tree));
  }), { numRuns: 500 });
});

test('property: left-to-right precedence without parentheses matches ordinary arithmetic', () => {
  const ints = fc.array(fc.integer({ min: 1, max: 99 }), { minLength: 2, maxLength: 8 });
  fc.assert(fc.property(ints, fc.array(fc.constantFrom('+', '-', '*'), { minLength: 7, maxLength: 7 }), (nums, ops) => {
    const text = nums.map((n, i) => (i === 0 ? String(n) : `${ops[i - 1]}${n}`)).join(' ');
    // The school rule, written out: products first, then sums left to right (exact on small integers).
    const terms: number[] = [nums[0]!];
    const signs: number[] = [1];
    nums.slice(1).forEach((n, i) => {
      const op = ops[i]!;
      if (op === '*') terms[terms.length - 1]! *= n;
      else {
        terms.push(n);
        signs.push(op === '-' ? -1 : 1);
      }
    });
    assert.equal(evaluateFormula(parseFormula(text), () => undefined), terms.reduce((sum, t, i) => sum + signs[i]! * t, 0));
  }), { numRuns: 300 });
});

test('property: any chain of formulas is ordered readers-last; closing it into a ring is refused as a cycle', () => {
  fc.assert(fc.property(fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }).filter((s) => !/[[\]]/.test(s) && s.trim() === s && s !== ''), { minLength: 2, maxLength: 8 }), fc.integer(), (labels, seed) => {
    // labels[i] reads labels[i + 1]; the last reads a plain tab.
    const chain = labels.map((l, i) => ({ tabLabel: l, formula: parseFormula(i + 1 < labels.length ? `[${labels[i + 1]}] * 2` : '[Qty]') }));
    const shuffled = [...chain].sort((a, b) => ((a.tabLabel.length * 31 + seed) % 7) - ((b.tabLabel.length * 31 + seed) % 7));
    const order = checkFormulas(shuffled, new Set(['Qty'])).map((f) => f.tabLabel);
    assert.deepEqual(order, [...labels].reverse());
    const ring = chain.map((f, i) => (i === chain.length - 1 ? { tabLabel: f.tabLabel, formula: parseFormula(`[${labels[0]}] + 1`) } : f));
    assert.throws(() => checkFormulas(ring, new Set(['Qty'])), refusal(/cycle/));
  }), { numRuns: 200 });
});
