import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BodyBudget } from './body-budget.ts';

test('the sum is bounded, and so is each owner\'s share of it; what is given back can be taken again', () => {
  const budget = new BodyBudget(10, 4);
  const a = {};
  const b = {};
  assert.equal(budget.take(4, a), true);
  assert.equal(budget.take(1, a), false, 'past a\'s share');
  assert.equal(budget.take(4, b), true);
  assert.equal(budget.take(2), true, 'no owner: only the sum counts');
  assert.equal(budget.take(1, {}), false, 'past the sum');
  assert.deepEqual([budget.held, budget.heldBy(a), budget.heldBy(b)], [10, 4, 4]);
  budget.give(4, a);
  assert.equal(budget.heldBy(a), 0);
  assert.equal(budget.take(3, a), true);
  assert.equal(budget.held, 9);
});
