import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConnectionList, type ListEntry } from './connection-list.ts';

test('entries come and go in any order; a removed entry points to nothing and removing it again changes nothing', () => {
  const list = new ConnectionList<{ id: number }>();
  const items = Array.from({ length: 5 }, (_, id) => ({ id }));
  const entries = items.map((item) => list.add(item));
  assert.equal(list.size, 5);
  // Head, middle, tail, then the rest.
  for (const i of [4, 2, 0]) {
    list.remove(entries[i]!);
    assert.deepEqual(entries[i], { value: undefined, prev: undefined, next: undefined });
  }
  assert.equal(list.size, 2);
  assert.deepEqual(list.values().map((v) => v.id).sort(), [1, 3]);
  list.remove(entries[2]!);
  assert.equal(list.size, 2);
  const again = list.add(items[0]!);
  assert.deepEqual(list.values().map((v) => v.id).sort(), [0, 1, 3]);
  list.remove(entries[1]!);
  list.remove(entries[3]!);
  list.remove(again);
  assert.equal(list.size, 0);
  assert.deepEqual(list.values(), []);
});

test('values() is a copy: closing connections while walking it removes them without skipping any', () => {
  type Item = { id: number; entry?: ListEntry<Item> };
  const list = new ConnectionList<Item>();
  const items: Item[] = Array.from({ length: 4 }, (_, id) => ({ id }));
  for (const item of items) item.entry = list.add(item);
  const seen: number[] = [];
  for (const item of list.values()) {
    seen.push(item.id);
    list.remove(item.entry!);
  }
  assert.deepEqual(seen.sort(), [0, 1, 2, 3]);
  assert.equal(list.size, 0);
});
