/**
 * At most `size` holders at once; the others wait in turn. `take` resolves with the function
 * that gives the slot back (to the next waiter, if any).
 */
export class Slots {
  readonly #size: number;
  #taken = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new TypeError(`size must be a positive integer, got ${size}`);
    this.#size = size;
  }

  async take(): Promise<() => void> {
    if (this.#taken < this.#size) this.#taken++;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#taken--;
    };
  }

  /** Holders now (tests and operators watch it). */
  get taken(): number {
    return this.#taken;
  }
}
