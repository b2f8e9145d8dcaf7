// Where this process's rate-limiting `local` policy counts: in-process for a single-process
// gateway, through the primary for a node's workers (set once at worker start).
import { CounterStore, type CounterAsk } from './counter-store.ts';

/** Takes counters; the usages before this request (see CounterStore.take). */
export type TakeCounters = (asks: readonly CounterAsk[]) => readonly number[] | Promise<readonly number[]>;

const inProcess = new CounterStore();
let take: TakeCounters = (asks) => inProcess.take(asks);

/** The node's counters as this process reaches them. */
export const takeLocalCounters: TakeCounters = (asks) => take(asks);

/** A worker counts through its primary (cluster/counter-messages.ts counterClient). */
export function useLocalCounters(counters: TakeCounters): void {
  take = counters;
}
