// The primary replaces a dead worker at once the first time, but a worker that keeps dying soon
// after its start (a fault every fresh worker hits) is replaced after growing, bounded delays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RestartBackoff } from './restart-backoff.ts';

test('RestartBackoff: quick deaths double the delay up to the bound; a worker that lived long resets it', () => {
  const backoff = new RestartBackoff({ baseMs: 100, maxMs: 1000, stableMs: 30_000 });
  // Each worker dies 1 s after it started.
  const delays = Array.from({ length: 7 }, (_, i) => backoff.delayFor(i * 10_000, i * 10_000 + 1000));
  assert.deepEqual(delays, [100, 200, 400, 800, 1000, 1000, 1000]);
  // One that served for a minute: an isolated fault, replaced at once, and the count starts over.
  assert.equal(backoff.delayFor(100_000, 160_000), 0);
  assert.equal(backoff.delayFor(160_000, 160_500), 100);
});
