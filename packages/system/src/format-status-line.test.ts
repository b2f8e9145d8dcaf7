import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatStatusLine } from './format-status-line.ts';

test('one line: each part up or waiting, with its restarts and a crash loop', () => {
  assert.equal(formatStatusLine([
    { name: 'esign-1', upMs: 4_200, restarts: 3, crashesInARow: 3 },
    { name: 'esign-2', restartInMs: 8_000, restarts: 4, crashesInARow: 5 },
    { name: 'gateway', upMs: 125_000, restarts: 0, crashesInARow: 0 },
    { name: 'other', restarts: 0, crashesInARow: 0 },
  ]), 'status: esign-1 up 4s (3 restarts) · esign-2 down, restart in 8s (4 restarts, 5 crashes in a row) · gateway up 2m05s · other down');
  assert.equal(formatStatusLine([{ name: 'x', upMs: 3_725_000, restarts: 1, crashesInARow: 1 }]), 'status: x up 1h02m (1 restart)');
});
