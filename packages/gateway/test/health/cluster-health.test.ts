// Health is per node: with node:cluster workers, every worker sees the state the primary holds,
// and a healthy/unhealthy call made in any worker resets the counters for all of them
// (docs/gateway-health.md, "Workers and nodes": every node resets the counters in all its workers).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { pollUntil } from '@signet/kit';
import { testLoaderArgs } from '@signet/kit/testing';
import { LocalHealth } from '../../src/health/local-health.ts';
import { serveWorkerHealth } from '../../src/cluster/serve-worker-health.ts';
import { clusterWorkerHub } from '../../src/cluster/worker-hub.ts';
import { healthchecks, snapshot, target, upstream } from './health.fixture.ts';
import type { Snapshot } from '../../src/declarative/types.ts';

type Query = { health: string | null; healthy: boolean; availability: string[] };

class TestWorker {
  #seq = 0;
  readonly #pending = new Map<number, (v: unknown) => void>();
  constructor(readonly worker: Worker) {
    worker.on('message', (m: { tag?: string; id?: number; result?: unknown }) => {
      if (m.tag === 'signet:test' && m.id !== undefined) this.#pending.get(m.id)?.(m.result);
    });
  }

  static async fork(): Promise<TestWorker> {
    const worker = cluster.fork();
    await new Promise<void>((resolve, reject) => {
      worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      worker.on('message', (m: { tag?: string; ready?: boolean }) => {
        if (m.tag === 'signet:test' && m.ready) resolve();
      });
    });
    return new TestWorker(worker);
  }

  call(op: string, args: object = {}): Promise<unknown> {
    const id = ++this.#seq;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.worker.send({ tag: 'signet:test', id, op, ...args });
    });
  }

  load(snap: Snapshot): Promise<unknown> {
    return this.call('load', { snapshot: snap });
  }

  query(key: string): Promise<Query> {
    return this.call('query', { upstream: 'svc', key }) as Promise<Query>;
  }

  async stop(): Promise<void> {
    if (this.worker.isDead()) return;
    const exited = new Promise((resolve) => this.worker.once('exit', resolve));
    this.worker.kill();
    await exited;
  }
}

const KEY = '10.0.0.1:80';

test('workers mirror the primary; a set from one worker resets the counters for all', async (t) => {
  cluster.setupPrimary({
    exec: fileURLToPath(new URL('./cluster-worker.fixture.ts', import.meta.url)),
    execArgv: [...testLoaderArgs],
  });
  const primary = new LocalHealth();
  // Here the workers bring the configuration; cluster/primary.ts loads it in the primary instead.
  const detach = serveWorkerHealth(primary, clusterWorkerHub(), { loadFromWorkers: true });
  const workers = [await TestWorker.fork(), await TestWorker.fork()];
  t.after(async () => {
    for (const w of workers) await w.stop();
    detach();
    await primary.close();
  });

  const up = upstream('svc', healthchecks({ passive: { unhealthy: { http_failures: 2 } } }));
  const snap = snapshot([up], [target(up, KEY), target(up, '10.0.0.2:80')]);
  for (const w of workers) await w.load(snap);
  await pollUntil(() => primary.snapshot?.hash === snap.hash, { what: 'primary loaded', timeoutMs: 5000 });

  const [w1, w2] = workers as [TestWorker, TestWorker];
  // One 500 through worker 1: the shared counter is at 1, nobody ejects yet.
  await w1.call('report', { upstream: 'svc', key: KEY, outcome: 500 });
  await pollUntil(() => primary.addressHealth('svc', KEY) === 'mostly_healthy', { what: 'mostly_healthy', timeoutMs: 5000 });
  // The second 500 arrives through worker 2: same counter, so the target is ejected everywhere.
  await w2.call('report', { upstream: 'svc', key: KEY, outcome: 500 });
  for (const w of workers) {
    await pollUntil(async () => (await w.query(KEY)).healthy === false, { what: 'ejected in every worker', timeoutMs: 5000 });
  }
  assert.deepEqual((await w1.query(KEY)).availability, [`svc ${KEY} down`]);

  // An operator call in worker 2 puts it back everywhere, counters at 0.
  await w2.call('set', { upstream: 'svc', keys: [KEY], healthy: true });
  for (const w of workers) {
    await pollUntil(async () => (await w.query(KEY)).healthy, { what: 'back in every worker', timeoutMs: 5000 });
  }
  assert.deepEqual(primary.registry.checker('svc')!.state(KEY), { health: 'healthy', counters: { success: 0, http: 0, tcp: 0, timeout: 0 } });
  // Reset means reset: one new 500 does not eject (the counter restarted at 0).
  await w1.call('report', { upstream: 'svc', key: KEY, outcome: 500 });
  await pollUntil(() => primary.addressHealth('svc', KEY) === 'mostly_healthy', { what: 'one failure counted', timeoutMs: 5000 });
  assert.equal((await w2.query(KEY)).healthy, true);

  // A worker started later (a respawn) gets the current state when it loads the configuration.
  primary.setStatus('svc', ['10.0.0.2:80'], false);
  const late = await TestWorker.fork();
  workers.push(late);
  await late.load(snap);
  await pollUntil(async () => (await late.query('10.0.0.2:80')).healthy === false, { what: 'late worker synced', timeoutMs: 5000 });
  assert.equal((await late.query(KEY)).health, 'mostly_healthy');
});
