import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { PollingLoop } from './polling-loop.ts';

test('passes never overlap; a wake during a pass runs another right after; stop waits', async () => {
  let active = 0;
  let maxActive = 0;
  let passes = 0;
  let release: (() => void) | undefined;
  const loop = new PollingLoop(async () => {
    active++;
    maxActive = Math.max(maxActive, active);
    passes++;
    if (passes === 1) await new Promise<void>((resolve) => (release = resolve));
    active--;
    return false;
  }, { intervalMs: 60_000 });
  loop.start();
  await pollUntil(() => release !== undefined, { what: 'the first pass to start' });
  loop.wake();
  loop.wake();
  release!();
  await pollUntil(() => passes === 2, { what: 'the requested second pass' });
  await loop.stop();
  assert.equal(maxActive, 1);
  assert.equal(passes, 2, 'two wakes during one pass ask for one more pass, and the long interval holds after it');
});

test('a pass that asks for more runs again at once; errors are reported and polling goes on', async () => {
  const errors: unknown[] = [];
  let passes = 0;
  const loop = new PollingLoop(async () => {
    passes++;
    await Promise.resolve();
    if (passes === 2) throw new Error('database down');
    return passes < 4;
  }, { intervalMs: 5, onError: (e) => errors.push(e) });
  loop.start();
  await pollUntil(() => passes >= 5, { what: 'five passes' });
  await loop.stop();
  const after = passes;
  assert.equal((errors[0] as Error).message, 'database down');
  assert.equal(passes, after, 'no pass after stop()');
});
