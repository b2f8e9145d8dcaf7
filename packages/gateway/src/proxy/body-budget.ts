/**
 * The bytes of client bodies one gateway process holds whole at once for its plugins
 * (key_in_body, request-transformer, ...). Each body is bounded (8 MiB), but without a bound on
 * their sum, clients that need no credentials to send a body could make a worker hold 8 MiB
 * per connection. A body is charged as it arrives and released when its exchange ends.
 *
 * Within the sum, each owner (a client connection: one HTTP/2 connection carries many streams)
 * holds `perOwner` at most, so one client cannot spend what every other client's bodies need.
 */
export class BodyBudget {
  #held = 0;
  readonly #byOwner = new WeakMap<object, number>();

  constructor(readonly limit: number, readonly perOwner: number = limit) {}

  /** Charges `bytes` to `owner`; false (nothing charged) when that passes the limit or the owner's share. */
  take(bytes: number, owner?: object): boolean {
    if (this.#held + bytes > this.limit) return false;
    if (owner !== undefined) {
      const mine = (this.#byOwner.get(owner) ?? 0) + bytes;
      if (mine > this.perOwner) return false;
      this.#byOwner.set(owner, mine);
    }
    this.#held += bytes;
    return true;
  }

  give(bytes: number, owner?: object): void {
    if (bytes === 0) return;
    this.#held -= bytes;
    if (owner !== undefined) this.#byOwner.set(owner, (this.#byOwner.get(owner) ?? 0) - bytes);
  }

  get held(): number {
    return this.#held;
  }

  /** What `owner` holds now. */
  heldBy(owner: object): number {
    return this.#byOwner.get(owner) ?? 0;
  }
}
