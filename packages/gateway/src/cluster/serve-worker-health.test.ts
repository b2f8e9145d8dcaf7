// The primary/worker health protocol over an in-memory channel (the node:cluster version runs in
// test/health/cluster-health.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LocalHealth } from '../health/local-health.ts';
import { flushMicrotasks } from '../health/fake-timers.ts';
import { serveWorkerHealth, type ServeWorkerHealthOptions } from './serve-worker-health.ts';
import { WorkerHealth } from './worker-health.ts';
import type { PrimaryPort, WorkerHub } from './worker-hub.ts';
import { healthchecks, snapshot, target, upstream } from '../../test/health/health.fixture.ts';

/** A primary and `n` workers joined by queued (asynchronous) in-memory channels. */
function node(n: number, options: ServeWorkerHealthOptions = {}) {
  const toWorker: Array<Set<(m: unknown) => void>> = [];
  const toPrimary = new Set<(id: number, m: unknown) => void>();
  const sent: unknown[] = [];
  const hub: WorkerHub = {
    broadcast: (m) => toWorker.forEach((hs) => queueMicrotask(() => hs.forEach((h) => h(m)))),
    send: (id, m) => queueMicrotask(() => toWorker[id]?.forEach((h) => h(m))),
    onMessage: (h) => {
      toPrimary.add(h);
      return () => toPrimary.delete(h);
    },
  };
  const primary = new LocalHealth({ activeProbes: false });
  serveWorkerHealth(primary, hub, options);
  const workers = Array.from({ length: n }, (_, id) => {
    toWorker[id] = new Set();
    const port: PrimaryPort = {
      send: (m) => {
        sent.push(m);
        queueMicrotask(() => toPrimary.forEach((h) => h(id, m)));
      },
      onMessage: (h) => {
        toWorker[id]!.add(h);
        return () => toWorker[id]!.delete(h);
      },
    };
    return new WorkerHealth(port);
  });
  return { primary, workers, sent };
}

const KEY = '10.0.0.1:80';
const up = upstream('svc', healthchecks({ passive: { unhealthy: { http_failures: 2 } } }));
const SNAP = snapshot([up], [target(up, KEY)]);
const OTHER = { ...snapshot([up], [target(up, KEY), target(up, '10.0.0.2:80')]), hash: '1'.repeat(32) };

test('no message for reports that cannot change anything; failures are counted once per node', async () => {
  const { primary, workers, sent } = node(2);
  primary.load(SNAP);
  for (const w of workers) w.load(SNAP);
  await flushMicrotasks();
  sent.length = 0;
  for (const w of workers) for (let i = 0; i < 100; i++) w.reportPassive('svc', KEY, 200);
  workers[0]!.reportPassive('svc', KEY, 404); // in neither list
  assert.equal(sent.length, 0);
  workers[0]!.reportPassive('svc', KEY, 500);
  workers[1]!.reportPassive('svc', KEY, 500);
  await flushMicrotasks();
  assert.equal(primary.addressHealth('svc', KEY), 'unhealthy');
  assert.deepEqual(workers.map((w) => w.isAddressHealthy('svc', KEY)), [false, false]);
});

test("by default a worker's older configuration never rolls the primary back", async () => {
  const { primary, workers } = node(1);
  primary.load(OTHER);
  primary.setStatus('svc', ['10.0.0.2:80'], false);
  const w = workers[0]!;
  w.load(SNAP); // stale: not the primary's
  await flushMicrotasks();
  assert.equal(primary.snapshot?.hash, OTHER.hash);
  w.load(OTHER); // the primary's configuration arrives: now the worker gets the full state
  await flushMicrotasks();
  assert.equal(w.isAddressHealthy('svc', '10.0.0.2:80'), false);
});

test('loadFromWorkers: the primary follows the configuration its workers load', async () => {
  const { primary, workers } = node(1, { loadFromWorkers: true });
  workers[0]!.load(SNAP);
  await flushMicrotasks();
  assert.equal(primary.snapshot?.hash, SNAP.hash);
});

test('an operator call in one worker applies in the primary and every worker', async () => {
  const { primary, workers } = node(3);
  primary.load(SNAP);
  for (const w of workers) w.load(SNAP);
  await flushMicrotasks();
  const seen: string[] = [];
  workers[2]!.onAvailabilityChange((u, k, isUp) => seen.push(`${u} ${k} ${isUp}`));
  workers[0]!.setStatus('svc', [KEY], false);
  await flushMicrotasks();
  assert.deepEqual(workers.map((w) => w.isAddressHealthy('svc', KEY)), [false, false, false]);
  assert.deepEqual(seen, [`svc ${KEY} false`]);
  workers[1]!.setStatus('svc', [KEY], true);
  await flushMicrotasks();
  assert.deepEqual(workers.map((w) => w.addressHealth('svc', KEY)), ['healthy', 'healthy', 'healthy']);
  assert.deepEqual(primary.registry.checker('svc')!.state(KEY)!.counters, { success: 0, http: 0, tcp: 0, timeout: 0 });
});

test('a worker that loads a configuration before the primary (a reload round) gets its full state once the primary loads it', async () => {
  const { primary, workers } = node(1);
  const [w] = workers as [WorkerHealth];
  // The primary remembers 10.0.0.2 down from an earlier configuration (retired, Kong keeps it 300 s).
  primary.load(OTHER);
  primary.setStatus('svc', ['10.0.0.2:80'], false);
  primary.load(SNAP);
  w.load(SNAP);
  await flushMicrotasks();
  // The round: the worker loads OTHER first; the primary commits it after.
  w.load(OTHER);
  await flushMicrotasks();
  assert.equal(w.isAddressHealthy('svc', '10.0.0.2:80'), true);
  primary.load(OTHER);
  await flushMicrotasks();
  assert.equal(w.isAddressHealthy('svc', '10.0.0.2:80'), false);
});
