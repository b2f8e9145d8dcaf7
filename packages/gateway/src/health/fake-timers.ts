import type { Timers } from './active-prober.ts';

/**
 * Hand-driven timers for unit tests of time-based health code: nothing fires until `advance`.
 * Exported from health/ because the prober's and the registry's tests both drive it.
 */
export class FakeTimers implements Timers {
  #now = 0;
  #seq = 0;
  readonly #pending = new Map<number, { at: number; fn: () => void }>();

  /** Milliseconds since the fake epoch. */
  now = (): number => this.#now;

  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.#seq;
    this.#pending.set(id, { at: this.#now + ms, fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#pending.delete(handle as number);
  }

  /** Number of armed timers. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Moves time forward, firing due timers in order and letting promise callbacks run between them. */
  async advance(ms: number): Promise<void> {
    const end = this.#now + ms;
    for (;;) {
      await flushMicrotasks();
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.#pending) if (entry[1].at <= end && (next === undefined || entry[1].at < next[1].at)) next = entry;
      if (next === undefined) break;
      this.#pending.delete(next[0]);
      this.#now = next[1].at;
      next[1].fn();
    }
    this.#now = end;
    await flushMicrotasks();
  }
}

/** Lets queued promise reactions run (a macrotask turn drains the microtask queue). */
export function flushMicrotasks(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
