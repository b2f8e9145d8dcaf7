// The cluster primary's POST /config (cluster-config.ts): a configuration becomes `current`, and
// the primary's health state takes it, only once every ready worker has loaded it. Before, the
// primary committed and broadcast first: a configuration no worker could load was answered 201,
// and every worker (each replacement asking for `current` again) died on it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ClusterConfig } from './cluster-config.ts';
import { CONFIG_TAG, type ConfigMessage } from './config-messages.ts';
import type { WorkerHub } from './worker-hub.ts';
import type { Snapshot } from '../declarative/types.ts';
import { snapshot } from '../../test/snapshot.fixture.ts';

function node(ready: number[], live = ready, timeoutMs = 60_000) {
  const sent: { to: number; message: ConfigMessage }[] = [];
  const hub: WorkerHub = {
    broadcast: (m) => {
      for (const to of live) sent.push({ to, message: m as ConfigMessage });
    },
    send: (to, m) => sent.push({ to, message: m as ConfigMessage }),
    onMessage: () => () => undefined,
  };
  const healthLoads: Snapshot[] = [];
  const first = snapshot({});
  const config = new ClusterConfig(first, {
    hub,
    health: { load: (s) => healthLoads.push(s) },
    readyWorkers: () => ready,
    liveWorkers: () => live,
    timeoutMs,
  });
  // What the workers were sent for `s`, and the round to answer.
  const roundOf = (s: Snapshot): number | undefined =>
    sent.map((x) => x.message).find((m): m is Extract<ConfigMessage, { k: 'snapshot' }> => m.k === 'snapshot' && m.snapshot === s)?.round;
  return { config, sent, healthLoads, first, roundOf };
}

const settled = async (p: Promise<unknown>): Promise<'resolved' | Error> => p.then(() => 'resolved' as const, (e: Error) => e);

test('one worker rejects: the reload fails, `current` and the health state stay, the others are put back', async () => {
  const n = node([1, 2]);
  const next = snapshot({});
  const applying = settled(n.config.apply(next));
  const round = n.roundOf(next);
  assert.equal(typeof round, 'number');
  n.config.onMessage(1, { tag: CONFIG_TAG, k: 'loaded', round } satisfies Partial<ConfigMessage>);
  n.config.onMessage(2, { tag: CONFIG_TAG, k: 'rejected', round, error: 'ee key too small' } satisfies Partial<ConfigMessage>);
  const outcome = await applying;
  assert.ok(outcome instanceof Error);
  assert.match(outcome.message, /ee key too small/);
  assert.equal(n.config.current, n.first);
  assert.deepEqual(n.healthLoads, []);
  // The running configuration goes back to the worker that had loaded the new one.
  const back = n.sent.filter((x) => x.message.k === 'snapshot' && x.message.snapshot === n.first).map((x) => x.to);
  assert.ok(back.includes(1));
  // A worker starting now gets the running configuration.
  n.config.onMessage(3, { tag: CONFIG_TAG, k: 'request' });
  assert.equal((n.sent.at(-1)?.message as { snapshot: Snapshot }).snapshot, n.first);
});

test('every ready worker loads it: it becomes current, health loads it, a worker still starting is sent it', async () => {
  const n = node([1, 2], [1, 2, 3]);
  const next = snapshot({});
  const applying = settled(n.config.apply(next));
  const round = n.roundOf(next);
  // Before every answer is in, `current` is still the running one.
  n.config.onMessage(3, { tag: CONFIG_TAG, k: 'request' });
  assert.equal((n.sent.at(-1)?.message as { snapshot: Snapshot }).snapshot, n.first);
  n.config.onMessage(1, { tag: CONFIG_TAG, k: 'loaded', round } satisfies Partial<ConfigMessage>);
  assert.equal(n.config.current, n.first);
  n.config.onMessage(2, { tag: CONFIG_TAG, k: 'loaded', round } satisfies Partial<ConfigMessage>);
  assert.equal(await applying, 'resolved');
  assert.equal(n.config.current, next);
  assert.deepEqual(n.healthLoads, [next]);
  assert.ok(n.sent.some((x) => x.to === 3 && x.message.k === 'snapshot' && x.message.snapshot === next));
});

test('a worker that exits during the reload is not waited for; one that never answers fails it at the deadline', async () => {
  const n = node([1, 2]);
  const next = snapshot({});
  const applying = settled(n.config.apply(next));
  n.config.onMessage(1, { tag: CONFIG_TAG, k: 'loaded', round: n.roundOf(next) } satisfies Partial<ConfigMessage>);
  n.config.onExit(2);
  assert.equal(await applying, 'resolved');
  assert.equal(n.config.current, next);

  const slow = node([1, 2], [1, 2], 20);
  const later = snapshot({});
  const waiting = settled(slow.config.apply(later));
  slow.config.onMessage(1, { tag: CONFIG_TAG, k: 'loaded', round: slow.roundOf(later) } satisfies Partial<ConfigMessage>);
  const timedOut = await waiting;
  assert.ok(timedOut instanceof Error);
  assert.match(timedOut.message, /did not answer/);
  assert.equal(slow.config.current, slow.first);
});

test('no ready worker to load it: refused, nothing changes', async () => {
  const n = node([], [1]);
  const outcome = await settled(n.config.apply(snapshot({})));
  assert.ok(outcome instanceof Error);
  assert.equal(n.config.current, n.first);
  assert.deepEqual(n.healthLoads, []);
});
