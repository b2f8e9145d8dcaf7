import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inTurns } from './in-turns.ts';

type Item = { lane: string | null; at: number };
const byAt = (a: Item, b: Item) => a.at - b.at;
const names = (items: Item[]) => items.map((i) => `${i.lane ?? '-'}${i.at}`);

test('lanes take turns; within a lane and within a turn, the older first', () => {
  const items: Item[] = [{ lane: 'a', at: 3 }, { lane: 'a', at: 1 }, { lane: 'a', at: 2 }, { lane: 'b', at: 9 }, { lane: null, at: 5 }, { lane: 'b', at: 8 }];
  assert.deepEqual(names(inTurns(items, (i) => i.lane, byAt)), ['a1', '-5', 'b8', 'a2', 'b9', 'a3']);
});

test('one lane keeps its order; nothing is empty', () => {
  assert.deepEqual(names(inTurns([{ lane: 'a', at: 2 }, { lane: 'a', at: 1 }], (i) => i.lane, byAt)), ['a1', 'a2']);
  assert.deepEqual(inTurns([], (i: Item) => i.lane, byAt), []);
});
