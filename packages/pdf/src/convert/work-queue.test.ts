import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pollUntil } from '@signet/kit';
import { WorkQueue } from './work-queue.ts';
import { PdfError } from '../pdf-error.ts';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('never runs more than `concurrency` jobs, and runs waiting jobs in order', async () => {
  const q = new WorkQueue(2);
  const gates = [deferred(), deferred(), deferred(), deferred()];
  const started: number[] = [];
  let peak = 0;
  const results = gates.map((g, i) =>
    q.run(async () => {
      started.push(i);
      peak = Math.max(peak, q.running);
      await g.promise;
      return i;
    }, 10_000),
  );
  await Promise.resolve();
  assert.deepEqual(started, [0, 1]);
  assert.equal(q.waiting, 2);
  gates[1]!.resolve();
  assert.equal(await results[1], 1);
  await pollUntil(() => started.length === 3, { timeoutMs: 2000, what: 'job 2 to start' });
  assert.deepEqual(started, [0, 1, 2]);
  for (const g of gates) g.resolve();
  assert.deepEqual(await Promise.all(results), [0, 1, 2, 3]);
  assert.equal(peak, 2);
  assert.equal(q.running, 0);
});

test('a job past its deadline is aborted, its caller gets CONVERSION_TIMEOUT and its slot frees', async () => {
  const q = new WorkQueue(1);
  let abortedWith: unknown;
  const hung = q.run((signal) => new Promise<never>(() => {
    signal.addEventListener('abort', () => {
      abortedWith = signal.reason;
    });
  }), 20);
  const next = q.run(() => Promise.resolve('next ran'), 10_000);
  await assert.rejects(hung, (e: unknown) => e instanceof PdfError && e.code === 'CONVERSION_TIMEOUT');
  assert.ok(abortedWith instanceof PdfError);
  assert.equal(await next, 'next ran');
});

test('a failing job frees its slot and passes its error through', async () => {
  const q = new WorkQueue(1);
  await assert.rejects(q.run(() => Promise.reject(new Error('boom')), 1000), /boom/);
  assert.equal(await q.run(() => Promise.resolve(7), 1000), 7);
});

test('close rejects waiting jobs and refuses new ones', async () => {
  const q = new WorkQueue(1);
  const gate = deferred();
  const running = q.run(() => gate.promise, 10_000);
  const queued = q.run(() => Promise.resolve('never'), 10_000);
  q.close();
  await assert.rejects(queued, (e: unknown) => e instanceof PdfError && e.code === 'CONVERTER_CLOSED');
  await assert.rejects(q.run(() => Promise.resolve(1), 1000), (e: unknown) => e instanceof PdfError && e.code === 'CONVERTER_CLOSED');
  gate.resolve();
  await running;
});

test('concurrency must be a positive integer', () => {
  assert.throws(() => new WorkQueue(0), TypeError);
});

test('waiting jobs are taken from each tenant in turn: one account queueing many cannot starve another', async () => {
  const q = new WorkQueue(1);
  const gate = deferred();
  const started: string[] = [];
  const job = (name: string) => async (): Promise<string> => {
    started.push(name);
    if (name === 'a0') await gate.promise;
    return name;
  };
  const runs = [
    q.run(job('a0'), 10_000, 'document', 'A'),
    ...['a1', 'a2', 'a3', 'a4'].map((n) => q.run(job(n), 10_000, 'document', 'A')),
    q.run(job('b1'), 10_000, 'document', 'B'),
    q.run(job('b2'), 10_000, 'document', 'B'),
    q.run(job('c1'), 10_000, 'document', 'C'),
  ];
  await Promise.resolve();
  assert.deepEqual(started, ['a0']);
  assert.equal(q.waiting, 7);
  gate.resolve();
  await Promise.all(runs);
  // FIFO would have run a1..a4 before B's and C's first documents; A, whose a0 ran, waits
  // for B and C to have had one each.
  assert.deepEqual(started, ['a0', 'b1', 'c1', 'a1', 'b2', 'a2', 'a3', 'a4']);
});

test('a tenant with maxWaitingPerTenant jobs waiting is refused at once; others and the untenanted are not', async () => {
  const q = new WorkQueue(1, { maxWaitingPerTenant: 2 });
  const gate = deferred();
  const running = q.run(() => gate.promise, 10_000, 'document', 'A');
  const waitingA = [q.run(() => Promise.resolve(1), 10_000, 'document', 'A'), q.run(() => Promise.resolve(2), 10_000, 'document', 'A')];
  await assert.rejects(q.run(() => Promise.resolve(3), 10_000, 'document', 'A'), (e: unknown) =>
    e instanceof PdfError && e.code === 'CONVERTER_BUSY' && /2 documents/.test(e.message));
  const others = [
    q.run(() => Promise.resolve('b'), 10_000, 'document', 'B'),
    ...[1, 2, 3].map((i) => q.run(() => Promise.resolve(`anon${i}`), 10_000)),
  ];
  assert.equal(q.waiting, 6);
  gate.resolve();
  await running;
  assert.deepEqual(await Promise.all(waitingA), [1, 2]);
  assert.deepEqual(await Promise.all(others), ['b', 'anon1', 'anon2', 'anon3']);
  // Once A's queue drained, A is welcome again.
  assert.equal(await q.run(() => Promise.resolve(4), 10_000, 'document', 'A'), 4);
});

test('a tenant whose job is running waits behind one that has had none: its second job does not go first', async () => {
  // A review: A's slow job ran, A's second was queued, then B's; the free slot went to A again
  // because A's line was older. The slot goes to the tenant whose last start is oldest.
  const q = new WorkQueue(1);
  const gate = deferred();
  const started: string[] = [];
  const job = (name: string) => async (): Promise<void> => {
    started.push(name);
    if (name === 'a1') await gate.promise;
  };
  const runs = [q.run(job('a1'), 10_000, 'document', 'A'), q.run(job('a2'), 10_000, 'document', 'A'), q.run(job('b1'), 10_000, 'document', 'B')];
  await Promise.resolve();
  gate.resolve();
  await Promise.all(runs);
  assert.deepEqual(started, ['a1', 'b1', 'a2']);
});
