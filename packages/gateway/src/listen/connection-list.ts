/** A place in a ConnectionList: what add() returns, for remove(). */
export type ListEntry<T extends object> = { value: T | undefined; prev: ListEntry<T> | undefined; next: ListEntry<T> | undefined };

/**
 * The open connections of a listener, as a linked list rather than a Set. A Set of short-lived
 * connections keeps rehashing (it grows and shrinks with every burst), and V8 leaves each old
 * hash table holding the connections it held then; once that table is in the old generation it
 * is only freed by a mark-compact, and until then every young-generation GC takes what it points
 * to as alive. Under `Connection: close` load that promoted every connection's socket and
 * listeners to the old generation (scavenges of several ms, a mark-compact every few seconds;
 * docs/benchmarks.md, "Lean client leg"). An entry removed here points to nothing.
 */
export class ConnectionList<T extends object> {
  #head: ListEntry<T> | undefined;
  #size = 0;

  add(value: T): ListEntry<T> {
    const entry: ListEntry<T> = { value, prev: undefined, next: this.#head };
    if (this.#head !== undefined) this.#head.prev = entry;
    this.#head = entry;
    this.#size++;
    return entry;
  }

  /** Takes the entry out (again: nothing happens). */
  remove(entry: ListEntry<T>): void {
    if (entry.value === undefined) return;
    if (entry.prev === undefined) this.#head = entry.next;
    else entry.prev.next = entry.next;
    if (entry.next !== undefined) entry.next.prev = entry.prev;
    entry.value = undefined;
    entry.prev = undefined;
    entry.next = undefined;
    this.#size--;
  }

  get size(): number {
    return this.#size;
  }

  /** The values now, as an array: the caller may remove entries (close connections) while it walks it. */
  values(): T[] {
    const out: T[] = [];
    for (let e = this.#head; e !== undefined; e = e.next) out.push(e.value!);
    return out;
  }
}
