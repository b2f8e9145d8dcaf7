// The counters of the `local` policies (rate-limiting, response-ratelimiting) for a whole node:
// Kong keeps them in a shared dictionary every nginx worker of the node sees (policies/init.lua,
// shm:incr with the period's expiry); here the node's primary process holds them and its workers
// ask it over IPC (cluster/counter-messages.ts), so a limit is exact across the workers.
// rate-limiting checks and counts in one step (`take`), so two workers cannot both take the last
// request; response-ratelimiting reads before proxying and adds what the upstream reported.
import { createHash } from 'node:crypto';

/** One period's counter a request asks about. */
export type CounterAsk = {
  /** Kong's key: ratelimit:<route>:<service>:<identifier>:<window start ms>:<period>. */
  readonly key: string;
  readonly limit: number;
  /** Seconds the counter lives after its first request (Kong's EXPIRATION[period]). */
  readonly expireSeconds: number;
};

/** A counter to move by `by` (negative too: Kong adds whatever the upstream reports). */
export type CounterAdd = { readonly key: string; readonly by: number; readonly expireSeconds: number };

/** One operation on a node's counters, as a worker sends it to the primary. */
export type CounterOp =
  | { readonly k: 'take'; readonly asks: readonly CounterAsk[] }
  | { readonly k: 'read'; readonly keys: readonly string[] }
  | { readonly k: 'add'; readonly adds: readonly CounterAdd[] };

/** How many counters the store keeps at most; past it the oldest are dropped (Kong's shm evicts LRU). */
export const MAX_COUNTERS = 500_000;

/**
 * Keys longer than this are kept as their SHA-256. The identifier in a key may be the client's
 * own (`limit_by` header or path): with 8 KiB headers, 500,000 raw keys would be ~4 GiB, where
 * Kong's shared dictionary is bounded in bytes. A digest bounds each counter instead.
 */
const MAX_KEY_CHARS = 256;
const storedKey = (key: string): string => (key.length <= MAX_KEY_CHARS ? key : `sha256:${createHash('sha256').update(key).digest('base64url')}`);

type Counter = { count: number; readonly expiresAt: number };

/** A node's counters, on an injectable clock (ms). */
export class CounterStore {
  readonly #counters = new Map<string, Counter>();
  readonly #now: () => number;
  readonly #max: number;
  #nextSweep = 0;

  constructor(now: () => number = Date.now, max = MAX_COUNTERS) {
    this.#now = now;
    this.#max = max;
  }

  /**
   * Kong's usage-then-increment as one step: each counter's value before this request; when
   * none is at its limit the request counts in every one (Kong does not count refused requests
   * under `local`).
   */
  take(asks: readonly CounterAsk[]): number[] {
    const now = this.#now();
    if (now >= this.#nextSweep) this.#sweep(now);
    const found: (Counter | undefined)[] = [];
    const usages: number[] = [];
    let refused = false;
    for (const a of asks) {
      const live = this.#live(a.key, now);
      const usage = live?.count ?? 0;
      found.push(live);
      usages.push(usage);
      if (a.limit - usage <= 0) refused = true;
    }
    if (refused) return usages;
    for (let i = 0; i < asks.length; i++) {
      const live = found[i];
      if (live !== undefined) live.count = usages[i]! + 1;
      else this.#insert(asks[i]!.key, { count: 1, expiresAt: now + asks[i]!.expireSeconds * 1000 });
    }
    return usages;
  }

  /** Each counter's current value (0 when absent or expired). */
  read(keys: readonly string[]): number[] {
    const now = this.#now();
    return keys.map((key) => this.#live(key, now)?.count ?? 0);
  }

  /** Moves each counter by its `by`; a new one starts at 0 and lives its period from now. */
  add(adds: readonly CounterAdd[]): void {
    const now = this.#now();
    if (now >= this.#nextSweep) this.#sweep(now);
    for (const a of adds) {
      const live = this.#live(a.key, now);
      if (live !== undefined) live.count += a.by;
      else this.#insert(a.key, { count: a.by, expiresAt: now + a.expireSeconds * 1000 });
    }
  }

  /** Runs one operation; `add` answers with no values. */
  apply(op: CounterOp): number[] {
    switch (op.k) {
      case 'take': return this.take(op.asks);
      case 'read': return this.read(op.keys);
      case 'add': this.add(op.adds); return [];
    }
  }

  /** How many counters are held (expired ones until the next sweep). */
  get size(): number {
    return this.#counters.size;
  }

  #live(key: string, now: number): Counter | undefined {
    const c = this.#counters.get(storedKey(key));
    return c !== undefined && c.expiresAt > now ? c : undefined;
  }

  #insert(rawKey: string, counter: Counter): void {
    const key = storedKey(rawKey);
    this.#counters.delete(key);
    if (this.#counters.size >= this.#max) this.#counters.delete(this.#counters.keys().next().value!);
    this.#counters.set(key, counter);
  }

  // Expired counters go at most once a second, so memory follows the live windows.
  #sweep(now: number): void {
    this.#nextSweep = now + 1000;
    for (const [key, c] of this.#counters) if (c.expiresAt <= now) this.#counters.delete(key);
  }
}
