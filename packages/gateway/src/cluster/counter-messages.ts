// rate-limiting's `local` counters between a node's workers and its primary, which holds them
// (plugins/rate-limiting/counter-store.ts). Tagged to share node:cluster's IPC channel.
import type { CounterAsk, CounterStore } from '../plugins/rate-limiting/counter-store.ts';
import type { PrimaryPort, WorkerHub } from './worker-hub.ts';

export const COUNTERS_TAG = 'signet:counters';

/** Worker → primary: `take` these counters; primary → worker: the usages before it. */
export type CounterMessage =
  | { readonly tag: typeof COUNTERS_TAG; readonly k: 'take'; readonly id: number; readonly asks: readonly CounterAsk[] }
  | { readonly tag: typeof COUNTERS_TAG; readonly k: 'took'; readonly id: number; readonly usages: readonly number[] };

const isCounterMessage = (m: unknown): m is CounterMessage =>
  typeof m === 'object' && m !== null && (m as { tag?: unknown }).tag === COUNTERS_TAG;

/** The primary answers its workers' asks from its store; returns the unsubscribe function. */
export function serveCounters(store: CounterStore, hub: WorkerHub): () => void {
  return hub.onMessage((workerId, m) => {
    if (!isCounterMessage(m) || m.k !== 'take') return;
    hub.send(workerId, { tag: COUNTERS_TAG, k: 'took', id: m.id, usages: store.take(m.asks) } satisfies CounterMessage);
  });
}

/** A worker's side: each take is one round trip to the primary. */
export function counterClient(port: PrimaryPort): (asks: readonly CounterAsk[]) => Promise<readonly number[]> {
  const pending = new Map<number, (usages: readonly number[]) => void>();
  let next = 0;
  port.onMessage((m) => {
    if (!isCounterMessage(m) || m.k !== 'took') return;
    pending.get(m.id)?.(m.usages);
    pending.delete(m.id);
  });
  return (asks) => new Promise((resolve) => {
    const id = next++;
    pending.set(id, resolve);
    port.send({ tag: COUNTERS_TAG, k: 'take', id, asks } satisfies CounterMessage);
  });
}
