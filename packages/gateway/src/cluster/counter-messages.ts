// The `local` policies' counters between a node's workers and its primary, which holds them
// (plugins/rate-limiting/counter-store.ts). A worker does not send one message per request: the
// operations its requests ask for during one turn of the event loop leave together in one
// message after it (setImmediate), and the primary answers them in one, in order. Under load
// a turn handles many requests, so the IPC cost per request falls as traffic grows, and the
// count stays exact: the primary applies every operation in the order it receives them.
// Tagged to share node:cluster's IPC channel.
import { CounterStore, type CounterOp } from '../plugins/rate-limiting/counter-store.ts';
import type { LocalCounters } from '../plugins/rate-limiting/local-counters.ts';
import type { PrimaryPort, WorkerHub } from './worker-hub.ts';

export const COUNTERS_TAG = 'signet:counters';

/** Worker → primary: a batch of operations; primary → worker: each one's values, in order. */
export type CounterMessage =
  | { readonly tag: typeof COUNTERS_TAG; readonly k: 'ops'; readonly id: number; readonly ops: readonly CounterOp[] }
  | { readonly tag: typeof COUNTERS_TAG; readonly k: 'done'; readonly id: number; readonly results: readonly (readonly number[])[] };

const isCounterMessage = (m: unknown): m is CounterMessage =>
  typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === COUNTERS_TAG;

/** The primary answers its workers' batches from its store; returns the unsubscribe function. */
export function serveCounters(store: CounterStore, hub: WorkerHub): () => void {
  return hub.onMessage((workerId, m) => {
    if (!isCounterMessage(m) || m.k !== 'ops') return;
    hub.send(workerId, { tag: COUNTERS_TAG, k: 'done', id: m.id, results: m.ops.map((op) => store.apply(op)) } satisfies CounterMessage);
  });
}

type Waiter = ((values: readonly number[]) => void) | undefined;

/**
 * A worker's side: one message per event-loop turn carries every operation of that turn. Once
 * the channel to the primary closes (the primary disconnects a stopping worker while it still
 * finishes its requests) nothing sent would be answered: batches in flight and every later one
 * are answered from a store of this worker's own, so those last requests count locally rather
 * than wait until the shutdown grace cuts them (test/rolling-restart.test.ts in packages/system
 * lost calls so, with deploy/kong.yml's rate-limiting on).
 */
export function counterClient(port: PrimaryPort, schedule: (flush: () => void) => void = setImmediate, fallback = new CounterStore()): LocalCounters {
  const inFlight = new Map<number, { readonly ops: readonly CounterOp[]; readonly waiters: readonly Waiter[] }>();
  let ops: CounterOp[] = [];
  let waiters: Waiter[] = [];
  let next = 0;
  const answerLocally = (batch: { readonly ops: readonly CounterOp[]; readonly waiters: readonly Waiter[] }): void => {
    batch.ops.forEach((op, i) => {
      const values = fallback.apply(op);
      batch.waiters[i]?.(values);
    });
  };
  port.onMessage((m) => {
    if (!isCounterMessage(m) || m.k !== 'done') return;
    const batch = inFlight.get(m.id);
    inFlight.delete(m.id);
    batch?.waiters.forEach((w, i) => w?.(m.results[i] ?? []));
  });
  port.onDisconnect?.(() => {
    const orphans = [...inFlight.values()];
    inFlight.clear();
    orphans.forEach(answerLocally);
  });
  const flush = (): void => {
    const batch = { ops, waiters };
    ops = [];
    waiters = [];
    if (port.connected === false) {
      answerLocally(batch);
      return;
    }
    const id = next++;
    inFlight.set(id, batch);
    port.send({ tag: COUNTERS_TAG, k: 'ops', id, ops: batch.ops } satisfies CounterMessage);
  };
  const queue = (op: CounterOp, waiter: Waiter): void => {
    if (ops.length === 0) schedule(flush);
    ops.push(op);
    waiters.push(waiter);
  };
  const ask = (op: CounterOp): Promise<readonly number[]> => new Promise((resolve) => queue(op, resolve));
  return {
    take: (asks) => ask({ k: 'take', asks }),
    read: (keys) => ask({ k: 'read', keys }),
    add: (adds) => queue({ k: 'add', adds }, undefined),
  };
}
