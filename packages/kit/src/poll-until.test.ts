import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from './poll-until.ts';

test('pollUntil resolves with the first truthy value', async () => {
  let n = 0;
  const value = await pollUntil(() => (++n >= 3 ? `done after ${n}` : undefined), { intervalMs: 1 });
  assert.equal(value, 'done after 3');
});

test('pollUntil rejects at the deadline, naming what it waited for and the last error', async () => {
  await assert.rejects(
    pollUntil(() => { throw new Error('not yet'); }, { timeoutMs: 30, intervalMs: 5, what: 'the moon' }),
    (err: Error) => /the moon/.test(err.message) && (err.cause as Error).message === 'not yet',
  );
});
