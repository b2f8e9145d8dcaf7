import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Slots } from './slots.ts';

test('at most `size` holders; a returned slot goes to the next waiter in turn; giving back twice counts once', async () => {
  const slots = new Slots(2);
  const a = await slots.take();
  const b = await slots.take();
  const order: string[] = [];
  const c = slots.take().then((give) => (order.push('c'), give));
  const d = slots.take().then((give) => (order.push('d'), give));
  await Promise.resolve();
  assert.deepEqual(order, []);
  assert.equal(slots.taken, 2);
  a();
  a();
  const giveC = await c;
  assert.deepEqual(order, ['c'], 'one slot back lets one waiter in');
  b();
  const giveD = await d;
  assert.deepEqual(order, ['c', 'd']);
  giveC();
  giveD();
  assert.equal(slots.taken, 0);
  assert.throws(() => new Slots(0), TypeError);
});
