// Where this process's `local` policies count: in-process for a single-process gateway, through
// the primary for a node's workers (set once at worker start).
import { CounterStore, type CounterAdd, type CounterAsk } from './counter-store.ts';

/** A node's counters as a process reaches them (see CounterStore); a worker's answer later. */
export type LocalCounters = {
  /** rate-limiting: the usages before this request, counted in the same step unless refused. */
  take(asks: readonly CounterAsk[]): readonly number[] | Promise<readonly number[]>;
  /** response-ratelimiting: the current values. */
  read(keys: readonly string[]): readonly number[] | Promise<readonly number[]>;
  /** response-ratelimiting: what the upstream reported, added without waiting. */
  add(adds: readonly CounterAdd[]): void;
};

const inProcess = new CounterStore();
let counters: LocalCounters = {
  take: (asks) => inProcess.take(asks),
  read: (keys) => inProcess.read(keys),
  add: (adds) => inProcess.add(adds),
};

/** The node's counters as this process reaches them. */
export const localCounters = (): LocalCounters => counters;

/** A worker counts through its primary (cluster/counter-messages.ts counterClient). */
export function useLocalCounters(through: LocalCounters): void {
  counters = through;
}
