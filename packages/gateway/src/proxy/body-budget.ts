/**
 * The bytes of client bodies one gateway process holds whole at once for its plugins
 * (key_in_body, request-transformer, ...). Each body is bounded (8 MiB), but without a bound on
 * their sum, clients that need no credentials to send a body could make a worker hold 8 MiB
 * per connection. A body is charged as it arrives and released when its exchange ends.
 */
export class BodyBudget {
  #held = 0;

  constructor(readonly limit: number) {}

  /** Charges `bytes`; false (nothing charged) when that would pass the limit. */
  take(bytes: number): boolean {
    if (this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#held -= bytes;
  }

  get held(): number {
    return this.#held;
  }
}
