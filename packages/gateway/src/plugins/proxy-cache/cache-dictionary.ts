// The memory strategy's store (kong/plugins/proxy-cache/strategies/memory.lua over an nginx
// shared dictionary): entries with a time to live, within a byte capacity; when a new entry does
// not fit, the least recently used ones are evicted, as a full lua_shared_dict evicts. Pure: the
// caller gives the time.

/** A stored response (the memory strategy's request object). */
export type CachedResponse = {
  readonly status: number;
  /** Raw header pairs as the upstream sent them (plus X-Cache-Key/Status as Kong stores them). */
  readonly headers: readonly string[];
  readonly body: Buffer;
  /** When stored, whole seconds (ngx.time()). */
  readonly timestamp: number;
  /** The freshness the response was given, seconds. */
  readonly ttl: number;
};

type Slot = { readonly entry: CachedResponse; readonly size: number; readonly expiresAtMs: number };

// Bookkeeping counted against the capacity besides the bytes themselves (as a shared dict's node).
const ENTRY_OVERHEAD = 128;

/** An entry's bytes as counted against the capacity. */
export function entrySize(key: string, entry: CachedResponse): number {
  let n = ENTRY_OVERHEAD + key.length + entry.body.length;
  for (const h of entry.headers) n += h.length;
  return n;
}

/** One dictionary (memory.dictionary_name), bounded in bytes. */
export class CacheDictionary {
  readonly capacity: number;
  // Map order is recency order: the first entry is the least recently used.
  readonly #slots = new Map<string, Slot>();
  #bytes = 0;

  constructor(capacity: number) {
    this.capacity = capacity;
  }

  /** Bytes held. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The entry under `key` unless expired (an expired one is dropped); a hit makes it the most recently used. */
  get(key: string, nowMs: number): CachedResponse | undefined {
    const slot = this.#slots.get(key);
    if (slot === undefined) return undefined;
    this.#slots.delete(key);
    if (slot.expiresAtMs <= nowMs) {
      this.#bytes -= slot.size;
      return undefined;
    }
    this.#slots.set(key, slot);
    return slot.entry;
  }

  /**
   * Stores an entry for `ttlSeconds`, evicting least recently used entries to make room; false
   * (nothing stored, nothing evicted) when it is larger than the whole dictionary.
   */
  set(key: string, entry: CachedResponse, ttlSeconds: number, nowMs: number): boolean {
    const size = entrySize(key, entry);
    if (size > this.capacity) return false;
    this.delete(key);
    for (const [oldest, slot] of this.#slots) {
      if (this.#bytes + size <= this.capacity) break;
      this.#slots.delete(oldest);
      this.#bytes -= slot.size;
    }
    this.#slots.set(key, { entry, size, expiresAtMs: nowMs + ttlSeconds * 1000 });
    this.#bytes += size;
    return true;
  }

  /** Removes an entry; true when there was one. */
  delete(key: string): boolean {
    const slot = this.#slots.get(key);
    if (slot === undefined) return false;
    this.#slots.delete(key);
    this.#bytes -= slot.size;
    return true;
  }

  /** Drops every entry (DELETE /proxy-cache). */
  flush(): void {
    this.#slots.clear();
    this.#bytes = 0;
  }
}
