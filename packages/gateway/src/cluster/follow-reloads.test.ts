// A worker's side of a reload: a snapshot it cannot load is reported to the primary and leaves
// the running configuration in place. Before, the load threw in the IPC handler: the worker
// died, and its replacement asked for the same configuration and died again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { followReloads } from './follow-reloads.ts';
import { CONFIG_TAG, type ConfigMessage } from './config-messages.ts';
import type { PrimaryPort } from './worker-hub.ts';
import type { Snapshot } from '../declarative/types.ts';
import { snapshot } from '../../test/snapshot.fixture.ts';

function fakePort() {
  const handlers = new Set<(m: unknown) => void>();
  const sent: unknown[] = [];
  const port: PrimaryPort = {
    send: (m) => sent.push(m),
    onMessage: (h) => {
      handlers.add(h);
      return () => handlers.delete(h);
    },
  };
  const deliver = (m: ConfigMessage): void => {
    for (const h of handlers) h(m);
  };
  return { port, sent, deliver };
}

test('a snapshot that fails to load is answered `rejected` and logged; the worker goes on, the next one loads', () => {
  const { port, sent, deliver } = fakePort();
  const good = snapshot({});
  const bad = snapshot({});
  const loaded: Snapshot[] = [];
  const errors: unknown[] = [];
  followReloads(port, (s) => {
    if (s === bad) throw new Error('ee key too small');
    loaded.push(s);
  }, { error: (...args: unknown[]) => errors.push(args) });
  assert.doesNotThrow(() => deliver({ tag: CONFIG_TAG, k: 'snapshot', snapshot: bad, round: 7 }));
  assert.deepEqual(sent, [{ tag: CONFIG_TAG, k: 'rejected', round: 7, error: 'ee key too small' }]);
  assert.equal(errors.length, 1);
  deliver({ tag: CONFIG_TAG, k: 'snapshot', snapshot: good, round: 8 });
  assert.deepEqual(loaded, [good]);
  assert.deepEqual(sent.at(-1), { tag: CONFIG_TAG, k: 'loaded', round: 8 });
  // A snapshot outside a round (a roll-back, or the one a starting worker missed) is not answered.
  assert.doesNotThrow(() => deliver({ tag: CONFIG_TAG, k: 'snapshot', snapshot: bad }));
  assert.equal(sent.length, 2);
  assert.equal(errors.length, 2);
});
